import { seededRandom } from '../support/seededRandom';
import {
  DEEP_VALUES,
  DICE_EXPRESSIONS,
  HOSTILE_MEMBERS,
  HOSTILE_STRINGS,
  HUGE_NUMBERS,
  TYPE_CONFUSION,
  hugeArrays,
  type Hostile,
} from './hostileValues';

/** Where a value sits in a JSON document: keys and array indexes from the root. */
export type Path = readonly (string | number)[];

export interface Slot {
  path: Path;
  kind: 'string' | 'number' | 'boolean' | 'array' | 'object';
}

/** One hostile change to a valid document: a value replaced, or a member added to an object. */
export interface Mutation {
  path: Path;
  hostile: Hostile;
  how: 'replace' | 'add-member';
}

export const pathLabel = (path: Path): string =>
  path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${key}` : key), '') || '(root)';

const samePath = (a: Path, b: Path) => a.length === b.length && a.every((k, i) => k === b[i]);

/** Every node of a valid document; of an array, only its first item (the others are alike). */
export function slotsOf(value: unknown, path: Path = []): Slot[] {
  if (typeof value === 'string') return [{ path, kind: 'string' }];
  if (typeof value === 'number') return [{ path, kind: 'number' }];
  if (typeof value === 'boolean') return [{ path, kind: 'boolean' }];
  if (Array.isArray(value)) return [{ path, kind: 'array' }, ...(value.length ? slotsOf(value[0], [...path, 0]) : [])];
  if (value && typeof value === 'object') {
    return [{ path, kind: 'object' }, ...Object.entries(value).flatMap(([k, v]) => slotsOf(v, [...path, k]))];
  }
  return [];
}

/** Writes a document as JSON text with the mutations applied (raw hostile JSON spliced in); throws if one has no place. */
export function render(value: unknown, mutations: readonly Mutation[] = []): string {
  const applied = new Set<Mutation>();
  const text = write(value, mutations, [], applied);
  const lost = mutations.find((m) => !applied.has(m));
  if (lost) throw new Error(`no ${pathLabel(lost.path)} in ${JSON.stringify(value).slice(0, 200)}`);
  return text;
}

function write(value: unknown, mutations: readonly Mutation[], path: Path, applied: Set<Mutation>): string {
  const here = mutations.filter((m) => samePath(m.path, path));
  const replaced = here.find((m) => m.how === 'replace');
  if (replaced) {
    here.filter((m) => m.how === 'replace').forEach((m) => applied.add(m));
    return replaced.hostile.json;
  }
  if (Array.isArray(value)) return `[${value.map((item, i) => write(item, mutations, [...path, i], applied)).join(',')}]`;
  if (value && typeof value === 'object') {
    const members = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${write(v, mutations, [...path, k], applied)}`);
    const added = here.filter((m) => m.how === 'add-member');
    added.forEach((m) => applied.add(m));
    members.push(...added.map((m) => m.hostile.json));
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

const FEW_NUMBERS = HUGE_NUMBERS.filter((h) => ['1e308', '1e309 (Infinity once parsed)', '2^53+1'].includes(h.label));
const PROTOTYPE_IN_NUMBER = HOSTILE_STRINGS.filter((h) => ['__proto__', 'constructor'].includes(h.label));

/**
 * The hostile values tried at one slot. Strings get every hostile string (dice expressions
 * also the huge modifiers), numbers the huge and odd numbers, arrays the huge arrays,
 * objects the hostile keys; each also gets the wrong types and deep nesting.
 */
export function hostileValuesFor(slot: Slot, valid: unknown, options: { diceExpression?: boolean; root?: boolean } = {}): { hostile: Hostile; how: Mutation['how'] }[] {
  const replace = (list: readonly Hostile[]) => list.map((hostile) => ({ hostile, how: 'replace' as const }));
  switch (slot.kind) {
    case 'string':
      return replace([...HOSTILE_STRINGS, ...(options.diceExpression ? DICE_EXPRESSIONS : []), ...FEW_NUMBERS, ...TYPE_CONFUSION, ...DEEP_VALUES]);
    case 'number':
      return replace([...HUGE_NUMBERS, ...PROTOTYPE_IN_NUMBER, ...TYPE_CONFUSION, DEEP_VALUES[0]]);
    case 'boolean':
      return replace([...TYPE_CONFUSION, HUGE_NUMBERS[2], DEEP_VALUES[0]]);
    case 'array': {
      const first = Array.isArray(valid) && valid.length ? render(valid[0]) : undefined;
      return replace([...hugeArrays(first), DEEP_VALUES[0], TYPE_CONFUSION[2]]);
    }
    case 'object': {
      const members = HOSTILE_MEMBERS.map((hostile) => ({ hostile, how: 'add-member' as const }));
      // The whole payload replaced: null and {} are left out (an absent payload is a valid one).
      return options.root ? [...members, ...replace([TYPE_CONFUSION[3], TYPE_CONFUSION[6], TYPE_CONFUSION[5], DEEP_VALUES[0], DEEP_VALUES[2]])] : members;
    }
  }
}

export function valueAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown> | undefined)?.[k], value);
}

/**
 * Seeded combinations: two or three string slots at once, each given a hostile string,
 * or two hostile strings glued together with a plain name around them.
 */
export function combinedMutations(document: unknown, count: number, seed: number): Mutation[][] {
  const random = seededRandom(seed);
  const strings = slotsOf(document).filter((s) => s.kind === 'string');
  const parses = (json: string) => {
    try {
      JSON.parse(json);
      return true;
    } catch {
      return false;
    }
  };
  const pool = HOSTILE_STRINGS.filter((h) => h.json.length < 2_000 && parses(h.json));
  const out: Mutation[][] = [];
  if (strings.length === 0) return out;
  for (let i = 0; i < count; i++) {
    const chosen = new Map<string, Mutation>();
    const n = Math.min(strings.length, random.int(1, 3));
    for (let tries = 0; chosen.size < n && tries < 20; tries++) {
      const slot = random.pick(strings);
      const a = random.pick(pool);
      const b = random.pick(pool);
      const glue = random.next() < 0.5;
      const text = glue ? `u${i}${JSON.parse(a.json)}${JSON.parse(b.json)}` : `${JSON.parse(a.json)}`;
      // JSON.stringify writes a lone surrogate as its escape, "\ud800": it stays one.
      const json = JSON.stringify(text);
      chosen.set(pathLabel(slot.path), {
        path: slot.path,
        how: 'replace',
        hostile: { cls: 'combined (seeded random)', label: glue ? `${a.label} + ${b.label}` : a.label, json },
      });
    }
    out.push([...chosen.values()]);
  }
  return out;
}
