/**
 * RFC 8785 JSON Canonicalization Scheme (JCS).
 *
 * Object keys are sorted by their UTF-16 code units, numbers are written as
 * ECMAScript writes them, strings as JSON.stringify escapes them. Values JCS
 * cannot encode (lone surrogates, non-finite numbers, undefined, functions)
 * are refused rather than silently altered.
 */
export class CanonicalJsonError extends Error {
  constructor(message: string, readonly path: string) {
    super(`${message} at ${path || '(root)'}`);
    this.name = 'CanonicalJsonError';
  }
}

export function canonicalJson(value: unknown): string {
  return write(value, '');
}

function write(value: unknown, path: string): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return value ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(value)) throw new CanonicalJsonError('non-finite number', path);
      return JSON.stringify(value);
    case 'string':
      if (!value.isWellFormed()) throw new CanonicalJsonError('lone surrogate in string', path);
      return JSON.stringify(value);
    case 'object': {
      if (Array.isArray(value)) {
        let out = '[';
        for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + write(value[i], `${path}[${i}]`);
        return `${out}]`;
      }
      const object = value as Record<string, unknown>;
      const keys = Object.keys(object).sort(compareUtf16);
      let out = '{';
      let first = true;
      for (const key of keys) {
        const member = object[key];
        if (member === undefined) continue;
        if (!key.isWellFormed()) throw new CanonicalJsonError('lone surrogate in key', path);
        out += `${first ? '' : ','}${JSON.stringify(key)}:${write(member, path ? `${path}.${key}` : key)}`;
        first = false;
      }
      return `${out}}`;
    }
    default:
      throw new CanonicalJsonError(`cannot encode ${typeof value}`, path);
  }
}

function compareUtf16(a: string, b: string): number {
  // JS string comparison is by UTF-16 code units, which is what RFC 8785 §3.2.3 asks for.
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Equality in JSON's data model: what canonicalJson would compare, without writing
 * the strings (key order does not matter; undefined members are absent).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  const left = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const right = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return left.length === right.length && left.every((k) => Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}
