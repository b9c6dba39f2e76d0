import * as z from 'zod';
import { TABLE_FORMAT, tableDefinitionSchema } from './definition';

/**
 * The JSON Schema (draft 2020-12) of arbiter-table/1, generated from the zod schema: the
 * structure only. The rules that tie the parts together (labels increasing, rows tiling,
 * cells naming results) are checked by validateTable, not expressible here.
 * Kept out of index.ts so that bundles without JSON Schema do not carry it.
 */
export function tableJsonSchema(): Record<string, unknown> {
  const { $schema, ...rest } = z.toJSONSchema(tableDefinitionSchema, { target: 'draft-2020-12', unrepresentable: 'any', io: 'input' }) as Record<string, unknown>;
  return {
    $schema,
    $id: 'table.json',
    title: `Arbiter combat table (${TABLE_FORMAT})`,
    ...rest,
    description:
      'The structure of a combat table. validateTable (POST /tables/validate) also checks what JSON Schema cannot say: labels strictly increasing, rows ascending without overlap or gap and holding every roll of the dice, one row of cells per row and one cell per column, every cell a code of results, codes unique.',
  };
}
