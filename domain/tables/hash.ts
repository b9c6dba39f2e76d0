import { canonicalJson } from '../canonicalJson';
import { hexOf } from '../crypto/encoding';
import { sha256 } from '../crypto/primitives';
import type { TableDefinition } from './definition';

const HASH = /^sha256:[0-9a-f]{64}$/;

/**
 * What a table is, in one line: 'sha256:' and the lowercase hex SHA-256 of the canonical
 * JSON (RFC 8785) of the parsed definition. Key order and white space do not change it;
 * any cell, label, rule or word does.
 */
export function tableHash(table: TableDefinition): string {
  return `sha256:${hexOf(sha256(canonicalJson(table)))}`;
}

/** 'sha256:' and the first 12 hex digits, for text lines and pages. */
export function shortTableHash(hash: string): string {
  if (!HASH.test(hash)) throw new RangeError(`not a table hash: ${JSON.stringify(hash.slice(0, 80))}`);
  return hash.slice(0, 'sha256:'.length + 12);
}
