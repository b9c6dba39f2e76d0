import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { warsAndBattlesRuleset } from '../../../../domain/rulesets/warsandbattles';
import { warsAndBattlesFreeText, warsAndBattlesSamples } from './samples';

type Path = (string | number)[];
const showPath = (path: Path) => path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${key}` : key), '');
function stringLeaves(value: unknown, path: Path = []): Path[] {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringLeaves(item, [...path, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => stringLeaves(item, [...path, key]));
  return [];
}
function withValue(payload: unknown, path: Path, value: string): unknown {
  const copy = structuredClone(payload) as Record<string | number, unknown>;
  let here = copy;
  for (const key of path.slice(0, -1)) here = here[key] as Record<string | number, unknown>;
  here[path[path.length - 1]] = value;
  return copy;
}
const freeTextPaths = (schema: z.ZodType, payload: unknown) => stringLeaves(payload).filter((path) => schema.safeParse(withValue(payload, path, 'Hélène 2')).success);

const schemas = [
  ...Object.entries(warsAndBattlesSamples.commands).map(([type, payload]) => ({ name: `wars-and-battles ${type}`, schema: warsAndBattlesRuleset.commands[type].schema, payload })),
  ...Object.entries(warsAndBattlesSamples.procedures).map(([p, payload]) => ({ name: `wars-and-battles procedure ${p}`, schema: warsAndBattlesRuleset.procedures[p].input, payload })),
];

describe('text players choose, in the Wars and Battles schemas', () => {
  it('has a sample of every command and procedure', () => {
    expect(Object.keys(warsAndBattlesSamples.commands).sort()).toEqual(Object.keys(warsAndBattlesRuleset.commands).sort());
    expect(Object.keys(warsAndBattlesSamples.procedures).sort()).toEqual(Object.keys(warsAndBattlesRuleset.procedures).sort());
  });

  for (const { name, schema, payload } of schemas) {
    it(`${name}: accepts its sample; its id and text fields refuse line breaks, controls, text-direction controls and blanks`, () => {
      expect(schema.safeParse(payload).error).toBeUndefined();
      const fields = freeTextPaths(schema, payload);
      expect(fields.map(showPath)).toEqual(warsAndBattlesFreeText[name] ?? []);
      for (const path of fields) {
        for (const bad of ['709\n#3 allied Resign', 'a\rb', 'a\u0085b', 'a\u2028b', '\u202e709', '   ', '']) {
          expect(schema.safeParse(withValue(payload, path, bad)).success, `${showPath(path)} with ${JSON.stringify(bad)}`).toBe(false);
        }
      }
    });
  }

  it('unit ids, divisions, terrain and commander names in the options too', () => {
    const unit = { unitId: 'u', side: 'allied', kind: 'infantry', division: 'd', quality: 'veteran', maxLp: 8 };
    for (const bad of ['a\nb', '\u202eb', ' ']) {
      expect(warsAndBattlesRuleset.options.safeParse({ units: [{ ...unit, unitId: bad }] }).success).toBe(false);
      expect(warsAndBattlesRuleset.options.safeParse({ units: [{ ...unit, division: bad }] }).success).toBe(false);
      expect(warsAndBattlesRuleset.options.safeParse({ terrain: [{ terrain: bad, c: 1 }] }).success).toBe(false);
      expect(warsAndBattlesRuleset.options.safeParse({ commanders: [{ commander: bad }] }).success).toBe(false);
    }
    expect(warsAndBattlesRuleset.options.safeParse({ units: [unit] }).success).toBe(true);
  });
});
