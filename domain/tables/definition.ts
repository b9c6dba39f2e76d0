import * as z from 'zod';
import { playerText } from '../playerText';
import { ANY_LABEL } from './labels';
import { checkTable } from './semantics';
import { TABLE_FORMAT, type TableDefinition } from './table';

export type { ColumnKind } from './labels';
export type { TableRow } from './rows';
export { TABLE_FORMAT } from './table';
export type { LandingPolicy, ShiftPastPolicy, TableColumns, TableDefinition, TableEffect, TableResult } from './table';

/** Bounds: a table comes from a player, and hostile input is normal input. */
export const TABLE_LIMITS = {
  columns: 100,
  rows: 200,
  results: 500,
  effects: 16,
  labelLength: 24,
  codeLength: 32,
  /** row keys are whole numbers within ±rowKey */
  rowKey: 100_000,
} as const;

/** A table id: lowercase letters, digits and hyphens, 1 to 64 characters. */
export const TABLE_ID = /^[a-z0-9][a-z0-9-]{0,63}$/;
/** A result code: 1 to 32 of A–Z a–z 0–9 / + * . - */
export const RESULT_CODE = /^[A-Za-z0-9/+*.-]{1,32}$/;
export const EFFECT_NAME = /^[a-z][a-z0-9-]{0,31}$/;
export const DICE = /^(?:[1-5]d(?:4|6|8|10|12|20|100)|d66|none)$/;

const oneOf = <T extends string>(values: readonly [T, ...T[]], what: string) =>
  z.enum(values, { error: `${what} is one of ${values.map((v) => JSON.stringify(v)).join(', ')}` });

const rowKey = z
  .int({ error: 'a roll in a row is a whole number' })
  .min(-TABLE_LIMITS.rowKey, `a roll in a row is at least -${TABLE_LIMITS.rowKey}`)
  .max(TABLE_LIMITS.rowKey, `a roll in a row is at most ${TABLE_LIMITS.rowKey}`);

const rowSchema = z.union(
  [
    z.strictObject({ roll: rowKey }).describe('one roll, e.g. {"roll": 7}'),
    z.strictObject({ from: rowKey, to: rowKey }).describe('the rolls from..to, both included, e.g. {"from": 2, "to": 4}'),
    z.strictObject({ atMost: rowKey }).describe('every roll up to this one (the first row only), e.g. {"atMost": 2}'),
    z.strictObject({ atLeast: rowKey }).describe('every roll from this one up (the last row only), e.g. {"atLeast": 12}'),
  ],
  { error: rowError },
);

const ROW_HELP = 'a row is {"roll": n}, {"from": a, "to": b}, {"atMost": n} or {"atLeast": n}';
const ROW_SHAPES = [['roll'], ['from', 'to'], ['atMost'], ['atLeast']];

/** A row that is none of the four shapes: what is wrong with the shape it comes closest to. */
function rowError(issue: { code?: string; input?: unknown; errors?: unknown }): string | undefined {
  if (issue.code !== 'invalid_union') return undefined;
  const input = issue.input;
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return ROW_HELP;
  const keys = Object.keys(input);
  let best = -1;
  let bestOverlap = 0;
  ROW_SHAPES.forEach((shape, index) => {
    const overlap = shape.filter((key) => keys.includes(key)).length;
    if (overlap > bestOverlap) [best, bestOverlap] = [index, overlap];
  });
  const errors = Array.isArray(issue.errors) ? (issue.errors[best] as { code: string; path: PropertyKey[]; message: string; keys?: string[] }[] | undefined) : undefined;
  const first = errors?.[0];
  if (!first) return ROW_HELP;
  if (first.code === 'unrecognized_keys') return `unknown field ${(first.keys ?? []).map((k) => JSON.stringify(k)).join(', ')}: ${ROW_HELP}`;
  const field = String(first.path[0] ?? '');
  const value = (input as Record<string, unknown>)[field];
  if (value === undefined) return `"${field}" is missing: ${ROW_HELP}`;
  return `${field}: ${first.message}`;
}

const effectSchema = z.strictObject({
  effect: z
    .string()
    .regex(EFFECT_NAME, 'an effect is 1 to 32 lowercase letters, digits and hyphens, starting with a letter, e.g. "loss" or "retreat"')
    .describe('what happens, e.g. "loss", "retreat", "disrupted"'),
  side: oneOf(['attacker', 'defender'], 'side').optional().describe('whom it happens to'),
  value: z.number({ error: 'value is a finite number' }).optional().describe('how much, e.g. 2 for two steps'),
  note: playerText(200).optional(),
});

const resultSchema = z.strictObject({
  code: z
    .string()
    .regex(RESULT_CODE, 'a code is 1 to 32 characters of A–Z, a–z, 0–9 and / + * . -')
    .describe('what a cell holds, e.g. "A1D13R" or "DR"'),
  description: playerText(500).optional(),
  effects: z.array(effectSchema).max(TABLE_LIMITS.effects, `a result has at most ${TABLE_LIMITS.effects} effects`),
});

const columnsSchema = z.strictObject({
  kind: oneOf(['ratio', 'differential', 'threshold'], 'kind').describe('ratio: attack:defence odds; differential: attack − defence; threshold: one value'),
  labels: z
    .array(
      z
        .string()
        .min(1, 'a label must not be empty')
        .max(TABLE_LIMITS.labelLength, `a label is at most ${TABLE_LIMITS.labelLength} characters`)
        .regex(ANY_LABEL, 'a label is a ratio ("1-2", "3:2"), a whole number ("-3", "+2") or a number ("2.5")'),
    )
    .min(1, 'a table has at least one column')
    .max(TABLE_LIMITS.columns, `a table has at most ${TABLE_LIMITS.columns} columns`)
    .describe('left to right, strictly increasing: "1-2", "3:2" (ratio); "-3", "0", "+2" (differential); "0", "12" (threshold)'),
  landing: oneOf(['defender', 'attacker', 'nearest-defender', 'nearest-attacker'], 'landing').describe(
    'defender: the rightmost column not above the input; attacker: the leftmost column not below it; nearest-*: round to a whole n first, exact halves to the named side',
  ),
  belowFirst: oneOf(['refuse', 'first-column'], 'belowFirst').describe('an input that lands left of the first column'),
  aboveLast: oneOf(['refuse', 'last-column'], 'aboveLast').describe('an input that lands right of the last column'),
  shiftPastLeft: oneOf(['clamp', 'die-modifier', 'refuse'], 'shiftPastLeft').describe('shifts past the first column: lost, −1 on the roll each, or refused'),
  shiftPastRight: oneOf(['clamp', 'die-modifier', 'refuse'], 'shiftPastRight').describe('shifts past the last column: lost, +1 on the roll each, or refused'),
});

const structure = z.strictObject({
  format: z.literal(TABLE_FORMAT, { error: `format is "${TABLE_FORMAT}"` }),
  id: z.string().regex(TABLE_ID, 'an id is 1 to 64 lowercase letters, digits and hyphens, starting with a letter or digit').describe('e.g. "wb-combat"'),
  title: playerText(200),
  source: playerText(500).optional().describe('where the table comes from: game, edition, page'),
  example: z.boolean().optional().describe('true when built only from a source’s worked examples, not the full published table'),
  dice: z
    .string()
    .regex(DICE, 'dice is "<n>d<s>" (n from 1 to 5, s one of 4, 6, 8, 10, 12, 20, 100), "d66" or "none"')
    .describe('"2d6", "1d10", "d66" (tens then units, 11..66) or "none" (a lookup without a roll)'),
  columns: columnsSchema,
  rows: z
    .array(rowSchema)
    .min(1, 'a table with dice has at least one row')
    .max(TABLE_LIMITS.rows, `a table has at most ${TABLE_LIMITS.rows} rows`)
    .optional()
    .describe('ascending, one per row of cells; left out when dice is "none"'),
  rowsOffTable: oneOf(['clamp', 'refuse'], 'rowsOffTable').optional().describe('a modified roll in no row: the nearest row, or refused before the dice are rolled'),
  results: z
    .array(resultSchema)
    .min(1, 'a table has at least one result')
    .max(TABLE_LIMITS.results, `a table has at most ${TABLE_LIMITS.results} results`),
  cells: z
    .array(
      z
        .array(z.string().regex(RESULT_CODE, 'a cell is a code of results: 1 to 32 characters of A–Z, a–z, 0–9 and / + * . -'))
        .max(TABLE_LIMITS.columns, `a row of cells has at most ${TABLE_LIMITS.columns} cells`),
    )
    .min(1, 'a table has at least one row of cells')
    .max(TABLE_LIMITS.rows, `a table has at most ${TABLE_LIMITS.rows} rows of cells`)
    .describe('one array per row, in row order; one result code per column'),
});

/**
 * A combat table, `arbiter-table/1`: the structure, then every rule that ties its parts
 * together (labels increasing, rows tiling, cells naming results), each issue at the place
 * it names.
 */
export const tableDefinitionSchema: z.ZodType<TableDefinition> = checked(structure);

/** What a ruleset that takes tables for one purpose narrows in them (published in its JSON Schema, so that it allows exactly what the ruleset takes). */
export interface TableNarrowing {
  /** The effects it reads. */
  effects?: readonly [string, ...string[]];
  /** The result codes it reads (cells and results), with the words for a player. */
  codes?: { pattern: RegExp; message: string };
}

/** The table schema, narrowed for one ruleset's use. */
export function tableDefinitionSchemaFor(narrowing: TableNarrowing): z.ZodType<TableDefinition> {
  const code = (what: string) => (narrowing.codes ? z.string().regex(narrowing.codes.pattern, narrowing.codes.message) : z.string().regex(RESULT_CODE, what));
  const effect = narrowing.effects ? effectSchema.extend({ effect: z.enum(narrowing.effects).describe('what happens: one of the effects this ruleset reads') }) : effectSchema;
  const result = resultSchema.extend({
    code: code('a code is 1 to 32 characters of A–Z, a–z, 0–9 and / + * . -'),
    effects: z.array(effect).max(TABLE_LIMITS.effects, `a result has at most ${TABLE_LIMITS.effects} effects`),
  });
  return checked(
    structure.extend({
      results: z.array(result).min(1, 'a table has at least one result').max(TABLE_LIMITS.results, `a table has at most ${TABLE_LIMITS.results} results`),
      cells: z
        .array(z.array(code('a cell is a code of results: 1 to 32 characters of A–Z, a–z, 0–9 and / + * . -')).max(TABLE_LIMITS.columns, `a row of cells has at most ${TABLE_LIMITS.columns} cells`))
        .min(1, 'a table has at least one row of cells')
        .max(TABLE_LIMITS.rows, `a table has at most ${TABLE_LIMITS.rows} rows of cells`)
        .describe('one array per row, in row order; one result code per column'),
    }),
  );
}

function checked(schema: z.ZodObject<z.ZodRawShape, z.core.$strict>): z.ZodType<TableDefinition> {
  return (
    schema
      .superRefine((table, ctx) => {
        for (const issue of checkTable(table as TableDefinition)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
      })
      .describe('A combat table for Arbiter (arbiter-table/1)')
      // Forms (the web app's) take a table as one JSON document, pasted, rather than field by field.
      .meta({ 'x-form': 'json' }) as unknown as z.ZodType<TableDefinition>
  );
}
