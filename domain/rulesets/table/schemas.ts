import * as z from 'zod';
import { playerText } from '../../playerText';
import { tableDefinitionSchema } from '../../tables';
import { sidesOption } from '../dice/schemas';

/** The most tables one game may bring (each up to 100 columns by 200 rows). */
export const MAX_TABLES = 16;

const tableId = z.string().regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a table id is a lowercase letter or digit, then up to 63 lowercase letters, digits or "-"');

const NO_TABLE = 'a table game needs at least one table: it resolves only on the tables it brings (docs/tables.md)';
const TABLES_DESCRIPTION = 'the combat tables of the game, as data (docs/tables.md); the game records them in its first commit, and resolves only on them';

const tableList = () =>
  z
    .array(tableDefinitionSchema, { error: (issue) => (issue.input === undefined ? NO_TABLE : undefined) })
    .max(MAX_TABLES, `a game brings at most ${MAX_TABLES} tables`)
    .superRefine((tables, ctx) => {
      const seen = new Map<string, number>();
      tables.forEach((table, index) => {
        const first = seen.get(table.id);
        if (first !== undefined) ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `"${table.id}" is already the id of table ${first}: ids must differ` });
        else seen.set(table.id, index);
      });
    });

/** The options as games recorded them: a game created with no table (before creations needed one) replays with this. */
export const TableOptions = z.strictObject({
  tables: tableList().default([]).describe(TABLES_DESCRIPTION),
  sides: sidesOption,
});
export type TableOptions = z.infer<typeof TableOptions>;

/** A new game brings at least one table: one without could never resolve anything. */
export const TableCreationOptions = z.strictObject({
  tables: tableList().min(1, NO_TABLE).describe(TABLES_DESCRIPTION),
  sides: sidesOption,
});

const Modifier = z.strictObject({
  source: playerText(100).describe('where the shift or modifier comes from, e.g. "marsh" or "air support"'),
  value: z.int().min(-99).max(99),
});

/** A strength or value as players write them: at most 3 decimals (so that a text line never carries a 300-digit ratio). */
const amount = (min: number) =>
  z
    .number()
    .min(min)
    .max(1e6)
    .refine((n) => Math.round(n * 1000) / 1000 === n, 'must have at most 3 decimals');

const Fight = {
  attack: amount(0).optional().describe('the attack total (ratio and differential tables)'),
  defence: amount(0).optional().describe('the defence total (ratio and differential tables)'),
  value: amount(-1e6).optional().describe('the value looked up (threshold tables), e.g. bombardment points'),
  shifts: z.array(Modifier).max(32).optional().describe('column shifts, each + to the right (towards the attacker)'),
  modifiers: z.array(Modifier).max(32).optional().describe('modifiers added to the roll'),
};

export const Resolve = z.strictObject({
  table: tableId.describe('the id of one of the game\'s tables'),
  ...Fight,
  purpose: playerText(200).optional().describe('what the resolution is for, e.g. "attack on 0912"'),
});
export type Resolve = z.infer<typeof Resolve>;

export const ResolveProcedureInput = z.strictObject({
  table: tableDefinitionSchema.describe('the table itself (docs/tables.md)'),
  ...Fight,
});
export type ResolveProcedureInput = z.infer<typeof ResolveProcedureInput>;

const TableSummary = z.object({
  id: z.string(),
  title: z.string(),
  hash: z.string().describe('sha256: of the table\'s canonical JSON, as the game recorded it'),
  example: z.boolean().describe('built from a source\'s worked examples only, not the full published table'),
});

export const TableView = z.object({
  tables: z.array(TableSummary),
  resolutions: z.int().describe('how many resolutions were recorded'),
  last: z
    .object({ table: z.string(), purpose: z.string().optional(), column: z.string(), roll: z.int().nullable(), code: z.string() })
    .nullable(),
  toMove: z.string().describe('whose move it is: the first side from creation, then the side each PassTurn names (docs/clocks.md)'),
});
