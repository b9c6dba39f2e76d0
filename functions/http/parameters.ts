import type { Json } from './openapiParts';

/** What the document generator gives a parameter whose schema depends on the deployment. */
export interface DocumentFacts {
  rulesetIds: string[];
}

/** A check's verdict on one raw value: the typed value, or why it is refused, in a caller's words. */
export type Checked<T> = { value: T } | { problem: string };

/**
 * One parameter of an operation (operations.ts), declared once: `document` is its OpenAPI parameter object, `check` what the
 * shared step (requestParameters in middleware.ts) does with the raw value before the handler runs. A header without a check
 * is documented only: its rule lives where it is enforced (Idempotency-Key: the service's idempotencyKey.ts).
 *
 * Plain checks, not zod: every Lambda bundle carries this table, and zod would triple the smallest ones (README's sizes).
 */
export type ParameterIn = 'path' | 'query' | 'header';

export interface Parameter<N extends string = string, T = unknown, In extends ParameterIn = ParameterIn> {
  name: N;
  in: In;
  document: (facts: DocumentFacts) => Json;
  check?: (raw: string | undefined) => Checked<T>;
}

/**
 * A path segment, percent-decoded by the router. Any value passes: an id nothing has is the service's 404
 * (unknown game, tournament, ruleset, file), which http-api.md puts before any other refusal.
 */
export function pathParameter<N extends string>(name: N, description: string, schema: Json | ((facts: DocumentFacts) => Json) = { type: 'string', minLength: 1 }): Parameter<N, string, 'path'> {
  return {
    name,
    in: 'path',
    document: (facts) => ({ name, in: 'path', required: true, description, schema: typeof schema === 'function' ? schema(facts) : schema }),
    check: (raw) => ({ value: raw ?? '' }),
  };
}

interface IntegerRule {
  min: number;
  max: number;
  /** What an absent value means: this number, or absent (`undefined`) when the handler tells "not asked" from the default. */
  fallback: number | undefined;
  /** The OpenAPI default (what the handler does without it). */
  default: number;
  /** At most this many digits (leading zeros included). */
  digits: number;
  /** `?limit=` with no value: the fallback (true), or refused like any other value that is not a number. */
  blankIsAbsent: boolean;
}

/** An integer in the query string: a value out of range is a 400 naming it, "must be an integer from min to max". */
export function integerQuery<N extends string, R extends IntegerRule>(
  name: N,
  description: string,
  rule: R,
): Parameter<N, R['fallback'] extends number ? number : number | undefined, 'query'> {
  const form = new RegExp(`^\\d{1,${rule.digits}}$`);
  const problem = `must be an integer from ${rule.min} to ${rule.max}`;
  return {
    name,
    in: 'query',
    document: () => ({ name, in: 'query', description, schema: { type: 'integer', minimum: rule.min, maximum: rule.max, default: rule.default } }),
    check: (raw) => {
      if (raw === undefined || (raw === '' && rule.blankIsAbsent)) return { value: rule.fallback as number };
      if (!form.test(raw) || Number(raw) < rule.min || Number(raw) > rule.max) return { problem };
      return { value: Number(raw) };
    },
  };
}

/** A text in the query string of printable ASCII (no space), 1 to `maxLength` characters; absent stays absent. */
export function textQuery<N extends string>(name: N, description: string, maxLength: number, problem: string): Parameter<N, string | undefined, 'query'> {
  const form = new RegExp(`^[\\x21-\\x7e]{1,${maxLength}}$`);
  return {
    name,
    in: 'query',
    document: () => ({ name, in: 'query', description, schema: { type: 'string', minLength: 1, maxLength } }),
    check: (raw) => (raw === undefined ? { value: undefined } : form.test(raw) ? { value: raw } : { problem }),
  };
}

/** A request header, documented; `example` shows its form. */
export function headerParameter<N extends string>(name: N, description: string, schema: Json, example: string, required?: boolean): Parameter<N, never, 'header'> {
  return {
    name,
    in: 'header',
    document: () => ({ name, in: 'header', ...(required === undefined ? {} : { required }), description, schema, example }),
  };
}

/** The typed values of a query declared by `parameters`, as the shared step left them on the event. */
export type QueryOf<P extends readonly Parameter[]> = { [Q in P[number] as Q extends Parameter<string, unknown, 'query'> ? Q['name'] : never]: Q extends Parameter<string, infer T> ? T : never };

/** Checked values, by parameter name: what the shared step hands the handler. */
export interface CheckedParameters {
  params?: ReadonlyMap<string, string>;
  query?: ReadonlyMap<string, unknown>;
}

/** The query values of `parameters`, typed; they were checked before the handler ran (a route the table does not declare has none). */
export function queryOf<P extends readonly Parameter[]>(event: CheckedParameters, parameters: P): QueryOf<P> {
  const { query } = event;
  if (!query) throw new Error('The query was not checked: the route is not in the operations table.');
  const values: Record<string, unknown> = {};
  for (const parameter of parameters) if (parameter.in === 'query') values[parameter.name] = query.get(parameter.name);
  return values as QueryOf<P>;
}

/** A path segment's checked value; '' when the route has no such segment. */
export const pathOf = (event: CheckedParameters, name: string): string => event.params?.get(name) ?? '';
