import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../domain/canonicalJson';
import * as tables from '../../../domain/tables';
import { shortTableHash, tableDefinitionSchema, tableHash, validateTable, type TableDefinition } from '../../../domain/tables';
import { tableJsonSchema } from '../../../domain/tables/jsonSchema';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const setPiece = JSON.parse(read('docs/examples/tables/france44-crt-set-piece.json')) as TableDefinition;

describe('tableHash', () => {
  it('is sha256: and the lowercase hex SHA-256 of the canonical JSON', () => {
    const expected = createHash('sha256').update(canonicalJson(setPiece)).digest('hex');
    expect(tableHash(setPiece)).toBe(`sha256:${expected}`);
    expect(tableHash(setPiece)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('ignores white space and key order, not a word of the table', () => {
    const reordered = JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(setPiece).reverse()), null, 4)) as TableDefinition;
    expect(Object.keys(reordered)[0]).toBe('cells');
    expect(tableHash(reordered)).toBe(tableHash(setPiece));
    expect(tableHash({ ...setPiece, title: `${setPiece.title} ` })).not.toBe(tableHash(setPiece));
    expect(tableHash({ ...setPiece, example: false })).not.toBe(tableHash(setPiece));
  });

  it('is the hash validateTable gives, of the parsed table', () => {
    const validation = validateTable(setPiece);
    expect(validation.ok && validation.hash).toBe(tableHash(setPiece));
  });

  it('of the France 1944 example is the one docs/tables.md shows', () => {
    expect(read('docs/tables.md')).toContain(tableHash(setPiece));
    expect(read('docs/tables.md')).toContain(shortTableHash(tableHash(setPiece)));
  });
});

describe('shortTableHash', () => {
  it('keeps sha256: and the first 12 hex digits', () => {
    const hash = tableHash(setPiece);
    expect(shortTableHash(hash)).toBe(hash.slice(0, 19));
    expect(shortTableHash(hash)).toMatch(/^sha256:[0-9a-f]{12}$/);
  });

  it('refuses what is not a table hash', () => {
    for (const bad of ['', 'sha256:abc', `sha256:${'A'.repeat(64)}`, `md5:${'a'.repeat(64)}`, `sha256:${'a'.repeat(65)}`]) expect(() => shortTableHash(bad)).toThrow(RangeError);
  });
});

describe('tableJsonSchema', () => {
  const schema = tableJsonSchema();

  it('is draft 2020-12, with $id table.json and a title', () => {
    expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(schema.$id).toBe('table.json');
    expect(schema.title).toBe('Arbiter combat table (arbiter-table/1)');
  });

  it('is generated from tableDefinitionSchema, not written by hand', () => {
    const { $schema: _s, description: _d, ...generated } = z.toJSONSchema(tableDefinitionSchema, { target: 'draft-2020-12', unrepresentable: 'any', io: 'input' }) as Record<string, unknown>;
    const { $schema: _s2, $id: _i, title: _t, description: _d2, ...ours } = schema;
    expect(ours).toEqual(generated);
  });

  it('says the structure: the format, the required fields, no unknown fields, the bounds', () => {
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    expect(properties.format).toMatchObject({ const: 'arbiter-table/1' });
    expect(schema.required).toEqual(['format', 'id', 'title', 'dice', 'columns', 'results', 'cells']);
    expect(schema.additionalProperties).toBe(false);
    expect((properties.columns.properties as Record<string, Record<string, unknown>>).labels).toMatchObject({ maxItems: 100 });
    expect(properties.rows).toMatchObject({ maxItems: 200 });
    expect(properties.results).toMatchObject({ maxItems: 500 });
    expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
  });

  it('stays out of the index, so that bundles without JSON Schema do not carry it', () => {
    expect('tableJsonSchema' in tables).toBe(false);
  });
});
