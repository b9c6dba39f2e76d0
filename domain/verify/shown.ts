/**
 * A value from an untrusted file, short enough for a message and safe to put in one:
 * never throws (objects without a prototype cannot be turned into text by `${}`).
 */
export function shown(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return String(value);
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return 'nothing';
}

/** The text of a caught error, whatever was thrown. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : shown(error);
}
