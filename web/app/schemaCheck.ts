// The first thing a value gets wrong against a JSON schema from the catalogue, in words
// ("`maxLp` must be a whole number from 1 to 99"), so pasted rows are checked before sending.
// It covers what the catalogue's schemas use; the server checks everything again.
import type { JsonSchema } from './jsonSchema';

type Schema = JsonSchema;

const types = (schema: Schema): string[] => (schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type]);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (record: object, key: string) => Object.prototype.hasOwnProperty.call(record, key);

function range(min: number | undefined, max: number | undefined): string {
  if (min !== undefined && max !== undefined) return min === max ? ` equal to ${min}` : ` from ${min} to ${max}`;
  if (min !== undefined) return ` of at least ${min}`;
  if (max !== undefined) return ` of at most ${max}`;
  return '';
}

function count(min: number | undefined, max: number | undefined, unit: string): string {
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${min} ${unit}` : `${min} to ${max} ${unit}`;
  return min !== undefined ? `at least ${min} ${unit}` : `at most ${max} ${unit}`;
}

function typeProblem(value: unknown, schema: Schema): string | undefined {
  const wanted = types(schema);
  if (!wanted.length) return undefined;
  const fits = wanted.some((t) => {
    if (t === 'integer') return typeof value === 'number' && Number.isInteger(value);
    if (t === 'number') return typeof value === 'number' && Number.isFinite(value);
    if (t === 'array') return Array.isArray(value);
    if (t === 'object') return isObject(value);
    if (t === 'null') return value === null;
    return typeof value === t;
  });
  if (fits) return undefined;
  const t = wanted.find((w) => w !== 'null') ?? 'null';
  if (t === 'integer') return `must be a whole number${range(schema.minimum, schema.maximum)}`;
  if (t === 'number') return `must be a number${range(schema.minimum, schema.maximum)}`;
  if (t === 'boolean') return 'must be true or false';
  if (t === 'string') return 'must be text';
  if (t === 'array') return 'must be a list';
  if (t === 'object') return 'must be an object with named fields';
  return 'must be empty';
}

/** What is wrong with `value` at `path` (a field name, `statusLp[1]`), or undefined when nothing is. */
export function schemaProblem(value: unknown, schema: Schema, path: string): string | undefined {
  const at = (text: string) => `\`${path}\` ${text}`;
  for (const part of schema.allOf ?? []) {
    const problem = schemaProblem(value, part, path);
    if (problem) return problem;
  }
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches?.length) {
    const problems = branches.map((b) => schemaProblem(value, b, path));
    if (problems.every(Boolean)) return problems[0];
  }
  if (schema.const !== undefined && value !== schema.const) return at(`must be ${JSON.stringify(schema.const)}`);
  if (schema.enum && !schema.enum.includes(value as never)) return at(`must be one of: ${schema.enum.map(String).join(', ')}`);
  const typeWrong = typeProblem(value, schema);
  if (typeWrong) return at(typeWrong);
  if (typeof value === 'number') {
    if ((schema.minimum !== undefined && value < schema.minimum) || (schema.maximum !== undefined && value > schema.maximum)) {
      return at(`must be ${types(schema).includes('integer') ? 'a whole number' : 'a number'}${range(schema.minimum, schema.maximum)}`);
    }
  }
  if (typeof value === 'string') {
    const length = [...value].length;
    if ((schema.minLength !== undefined && length < schema.minLength) || (schema.maxLength !== undefined && length > schema.maxLength)) {
      return at(length === 0 ? 'must not be empty' : `must be ${count(schema.minLength, schema.maxLength, 'characters')} long`);
    }
    if (schema.pattern !== undefined) {
      let pattern: RegExp | undefined;
      try {
        pattern = new RegExp(schema.pattern, 'u');
      } catch {
        pattern = undefined; // a pattern this browser cannot read: the server checks it
      }
      if (pattern && !pattern.test(value)) return at('must not be blank or hold control or direction characters');
    }
  }
  if (Array.isArray(value)) {
    if ((schema.minItems !== undefined && value.length < schema.minItems) || (schema.maxItems !== undefined && value.length > schema.maxItems)) {
      return at(`must be a list of ${count(schema.minItems, schema.maxItems, 'items')}`);
    }
    for (let i = 0; i < value.length; i++) {
      const itemSchema = schema.prefixItems?.[i] ?? schema.items;
      const problem = itemSchema ? schemaProblem(value[i], itemSchema, `${path}[${i}]`) : undefined;
      if (problem) return problem;
    }
  }
  if (isObject(value)) return objectProblem(value, schema, path);
  return undefined;
}

/** The same for an object, its fields named by themselves (a row of a list: `maxLp`, not `units[2].maxLp`). */
export function objectProblem(value: Record<string, unknown>, schema: Schema, prefix = ''): string | undefined {
  const name = (key: string) => (prefix ? `${prefix}.${key}` : key);
  for (const key of schema.required ?? []) {
    if (!has(value, key) || value[key] === undefined) return `\`${name(key)}\` is missing`;
  }
  const properties = schema.properties ?? {};
  for (const key of Object.keys(value)) {
    if (!has(properties, key)) {
      if (schema.additionalProperties === false) return `\`${name(key)}\` is not a field here (known: ${Object.keys(properties).join(', ')})`;
      continue;
    }
    const problem = schemaProblem(value[key], properties[key], name(key));
    if (problem) return problem;
  }
  return undefined;
}
