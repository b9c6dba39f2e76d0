/** Deeper than any command or option needs; a body nested deeper is refused before anything walks it. */
export const MAX_JSON_DEPTH = 64;

export interface JsonProblem {
  field: string;
  message: string;
}

/**
 * The first reason a parsed body can't be taken: nesting deeper than MAX_JSON_DEPTH,
 * a lone UTF-16 surrogate (canonical JSON can't encode it), or a member named
 * `__proto__` (no schema has one, and validators drop it silently instead of refusing
 * it). Walks with its own stack, so no body can overflow the call stack.
 */
export function jsonProblem(value: unknown): JsonProblem | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value: here, path, depth } = stack.pop()!;
    if (typeof here === 'string') {
      if (!here.isWellFormed()) return { field: path || '(body)', message: lone };
      continue;
    }
    if (here === null || typeof here !== 'object') continue;
    if (depth >= MAX_JSON_DEPTH) return { field: path || '(body)', message: `is nested more than ${MAX_JSON_DEPTH} levels deep` };
    if (Array.isArray(here)) {
      for (let i = here.length - 1; i >= 0; i--) stack.push({ value: here[i], path: `${path}[${i}]`, depth: depth + 1 });
      continue;
    }
    const entries = Object.entries(here);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, member] = entries[i];
      const memberPath = path ? `${path}.${key}` : key;
      if (!key.isWellFormed()) return { field: memberPath, message: lone };
      if (key === '__proto__') return { field: memberPath, message: 'is not a field of any request' };
      stack.push({ value: member, path: memberPath, depth: depth + 1 });
    }
  }
  return undefined;
}

const lone = 'contains a lone UTF-16 surrogate, which canonical JSON cannot encode';
