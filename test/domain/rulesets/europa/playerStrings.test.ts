import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { europaRuleset } from '../../../../domain/rulesets/europa';
import { europaFreeText, europaSamples, fire } from './samples';

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
  ...Object.entries(europaSamples.commands).map(([type, payload]) => ({ name: `europa ${type}`, schema: europaRuleset.commands[type].schema, payload })),
  ...Object.entries(europaSamples.procedures).map(([p, payload]) => ({ name: `europa procedure ${p}`, schema: europaRuleset.procedures[p].input, payload })),
];

describe('text players choose, in the europa schemas', () => {
  it('has a sample of every command and procedure', () => {
    expect(Object.keys(europaSamples.commands).sort()).toEqual(Object.keys(europaRuleset.commands).sort());
    expect(Object.keys(europaSamples.procedures).sort()).toEqual(Object.keys(europaRuleset.procedures).sort());
  });

  for (const { name, schema, payload } of schemas) {
    it(`${name}: accepts its sample; its id fields refuse line breaks, controls, text-direction controls and blanks`, () => {
      expect(schema.safeParse(payload).error).toBeUndefined();
      const fields = freeTextPaths(schema, payload);
      expect(fields.map(showPath)).toEqual(europaFreeText[name]);
      for (const path of fields) {
        for (const bad of ['709\n#3 allied Resign', 'a\rb', 'a\u0085b', 'a\u2028b', '\u202e709', '   ', '']) {
          expect(schema.safeParse(withValue(payload, path, bad)).success, `${showPath(path)} with ${JSON.stringify(bad)}`).toBe(false);
        }
      }
    });
  }

  it('the other sites of FortificationEvent are ids too, and a date is a Europa turn', () => {
    const schema = europaRuleset.commands.FortificationEvent.schema;
    for (const action of ['gain', 'loss']) expect(schema.safeParse({ action, site: 'a\nb', side: 'axis' }).success).toBe(false);
    for (const action of ['destroy', 'begin-improvement']) expect(schema.safeParse({ action, site: '\u202eb' }).success).toBe(false);
    expect(europaRuleset.commands.AAFire.schema.safeParse({ ...fire, date: 'June 1944' }).error?.issues[0]).toMatchObject({ path: ['date'], message: expect.stringMatching(/Jun II 44/) });
  });
});
