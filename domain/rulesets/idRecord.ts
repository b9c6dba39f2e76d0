/**
 * A record keyed by ids the players choose. It has no prototype, so `__proto__`,
 * `constructor` or `toString` are ordinary keys: never an inherited value, never the
 * prototype setter. Plain records rather than Maps keep the order views always listed
 * them in (integer-like ids first, ascending, then the others as added), and
 * JSON.stringify writes them as they are.
 *
 * Build and change them only with these functions: a spread (`{ ...record }`) would
 * give the copy Object.prototype back.
 */
export type IdRecord<V> = { readonly [id: string]: V };

export function idRecord<V>(entries: Iterable<readonly [string, V]> = []): IdRecord<V> {
  const record: Record<string, V> = Object.create(null);
  for (const [id, value] of entries) record[id] = value;
  return record;
}

export function entryOf<V>(record: IdRecord<V>, id: string): V | undefined {
  return Object.hasOwn(record, id) ? record[id] : undefined;
}

export function withEntry<V>(record: IdRecord<V>, id: string, value: V): IdRecord<V> {
  return idRecord([...Object.entries(record), [id, value]]);
}

export function withoutEntry<V>(record: IdRecord<V>, id: string): IdRecord<V> {
  return idRecord(Object.entries(record).filter(([key]) => key !== id));
}
