import type * as z from 'zod';
import { formatJsonPath } from '../json/jsonPath';
import { tableDefinitionSchema, type TableDefinition } from './definition';
import { tableHash } from './hash';

export interface TableIssueReport {
  /** where: "cells[3][5]", "columns.labels[4]", "(table)" for the whole table */
  path: string;
  message: string;
}

export type TableValidation = { ok: true; table: TableDefinition; hash: string } | { ok: false; issues: TableIssueReport[] };

/** The most issues one answer lists; a table broken everywhere need not be described everywhere. */
export const MAX_REPORTED_ISSUES = 100;

/**
 * Checks a table (any JSON value) against arbiter-table/1: the parsed table and its hash,
 * or every issue (up to 100), each with its place and a message a player understands.
 */
export function validateTable(json: unknown): TableValidation {
  const parsed = tableDefinitionSchema.safeParse(json, { reportInput: true });
  if (parsed.success) return { ok: true, table: parsed.data, hash: tableHash(parsed.data) };
  const issues = parsed.error.issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => ({
    path: issue.path.length ? formatJsonPath(issue.path as (string | number)[]) : '(table)',
    message: messageOf(issue),
  }));
  return { ok: false, issues };
}

/** zod's own wording where the schema gives none, in a table writer's words. */
function messageOf(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'unrecognized_keys': {
      const keys = issue.keys.map((key) => JSON.stringify(key));
      return `${keys.length === 1 ? 'unknown field' : 'unknown fields'} ${keys.join(', ')}: a table has only the fields arbiter-table/1 names`;
    }
    case 'invalid_type':
      if (issue.message.startsWith('Invalid input')) {
        return issue.input === undefined ? `missing: this field is required (${issue.expected})` : `must be ${article(issue.expected)}, not ${describe(issue.input)}`;
      }
      return issue.message;
    default:
      return issue.message;
  }
}

function article(expected: string): string {
  if (expected === 'array') return 'an array';
  if (expected === 'object') return 'an object';
  if (expected === 'int') return 'a whole number';
  return `a ${expected}`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}
