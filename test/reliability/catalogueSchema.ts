/**
 * Reads the JSON schemas GET /rulesets publishes, to tell whether a string is one the
 * schema allows at a place of a payload: then the service must take it like any other.
 */
export type JsonSchema = Record<string, any>;
type Path = readonly (string | number)[];

function alternatives(schema: JsonSchema): JsonSchema[] {
  const alts = schema.anyOf ?? schema.oneOf;
  return alts ? (alts as JsonSchema[]).flatMap(alternatives) : [schema];
}

/** Every schema that may apply at the path (each branch of anyOf / oneOf followed). */
export function schemasAt(schema: JsonSchema, path: Path): JsonSchema[] {
  let here = [schema];
  for (const key of path) {
    here = here.flatMap(alternatives).flatMap((s) => {
      if (typeof key === 'number') return s.items ? [s.items as JsonSchema] : [];
      return s.properties && Object.hasOwn(s.properties, key) ? [s.properties[key] as JsonSchema] : [];
    });
  }
  return here;
}

function pattern(source: string): RegExp {
  try {
    return new RegExp(source, 'u');
  } catch {
    return new RegExp(source);
  }
}

function meets(s: JsonSchema, value: string): boolean {
  const length = [...value].length; // JSON Schema counts code points
  if (s.enum && !s.enum.includes(value)) return false;
  if (s.const !== undefined && s.const !== value) return false;
  if (s.minLength !== undefined && length < s.minLength) return false;
  if (s.maxLength !== undefined && length > s.maxLength) return false;
  if (s.pattern !== undefined && !pattern(s.pattern).test(value)) return false;
  return (s.allOf ?? []).every((part: JsonSchema) => meets(part, value));
}

/** True when some schema at the path is a string schema that this value satisfies. */
export function allowsString(schema: JsonSchema, path: Path, value: string): boolean {
  return schemasAt(schema, path)
    .flatMap(alternatives)
    .some((s) => s.type === 'string' && meets(s, value));
}

/** True when every schema at the path is an object schema that refuses members it does not name. */
export function refusesOtherMembers(schema: JsonSchema, path: Path): boolean {
  const here = schemasAt(schema, path).flatMap(alternatives);
  return here.length > 0 && here.every((s) => s.type === 'object' && s.additionalProperties === false);
}
