import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { fieldIssues, IN_WORDS } from '../../../functions/application/zodIssues';

const Order = z.strictObject({
  range: z.int().min(1).max(99),
  side: z.enum(['allied', 'axis']),
  units: z.array(z.string()).min(1),
  sides: z.array(z.string()).min(2).max(8),
  name: z.string().min(1).max(8),
  strength: z.number().positive(),
  count: z.int().min(1),
  kind: z.literal('attack'),
  dice: z.union([z.string(), z.array(z.int())]),
  step: z.number().multipleOf(5),
  hex: z.string().regex(/^\d{4}$/).describe('a hex number such as 0912'),
  code: z.string().regex(/^[A-Z]$/),
  start: z.iso.datetime(),
  scores: z.record(z.string().regex(/^[a-z]+$/), z.int()),
  fight: z.discriminatedUnion('kind', [z.strictObject({ kind: z.literal('battle'), range: z.int() }), z.strictObject({ kind: z.literal('assault') })]),
  purpose: z.string().superRefine((text, ctx) => {
    if (text.includes('#')) ctx.addIssue({ code: 'custom', message: 'must not contain "#": the chat reads it as a command' });
  }),
  morale: z.int().min(0, 'morale is never below 0'),
  check: z.string().refine((s) => s !== 'x'),
});

const valid = {
  range: 5, side: 'allied', units: ['a'], sides: ['a', 'b'], name: 'n', strength: 1, count: 1, kind: 'attack', dice: 'd6', step: 10, hex: '0912', code: 'A',
  start: '2026-11-27T05:20:00Z', scores: { a: 1 }, fight: { kind: 'assault' }, purpose: 'p', morale: 0, check: 'y',
};

/** The one issue of `valid` with one field replaced, with the words of the service (IN_WORDS) and with zod's finalized issue alone. */
function wordsFor(change: Record<string, unknown>, drop?: string) {
  const input: Record<string, unknown> = { ...valid, ...change };
  if (drop) delete input[drop];
  const rich = Order.safeParse(input, IN_WORDS);
  const plain = Order.safeParse(input);
  if (rich.success || plain.success) throw new Error(`accepted: ${JSON.stringify(change)}`);
  return { rich: fieldIssues(rich.error), plain: fieldIssues(plain.error) };
}

describe("zod's issues in a player's words, with the field", () => {
  // [zod code, what was sent, field, words with the schema at hand (IN_WORDS), words from the finalized issue alone]
  const cases: [string, Record<string, unknown>, string, string, string][] = [
    ['too_small (number, both bounds)', { range: 0 }, 'range', 'must be a whole number from 1 to 99', 'must be at least 1'],
    ['too_big (number, both bounds)', { range: 100 }, 'range', 'must be a whole number from 1 to 99', 'must be at most 99'],
    ['too_small (number, one bound)', { count: 0 }, 'count', 'must be a whole number of at least 1', 'must be at least 1'],
    ['too_small (exclusive)', { strength: 0 }, 'strength', 'must be more than 0', 'must be more than 0'],
    ['too_small (array)', { units: [] }, 'units', 'needs at least 1 item', 'needs at least 1 item'],
    ['too_small (array, both bounds)', { sides: ['a'] }, 'sides', 'needs 2 to 8 items', 'needs at least 2 items'],
    ['too_big (string)', { name: 'x'.repeat(9) }, 'name', 'needs 1 to 8 characters', 'may have at most 8 characters'],
    ['too_small (empty string)', { name: '' }, 'name', 'needs 1 to 8 characters', 'must not be empty'],
    ['invalid_type', { range: 'five' }, 'range', 'must be a whole number, not text', 'must be a number, not text'],
    ['invalid_type (not whole)', { range: 2.5 }, 'range', 'must be a whole number', 'must be a whole number'],
    ['invalid_value (enum)', { side: 'soviet' }, 'side', 'must be one of allied, axis', 'must be one of allied, axis'],
    ['invalid_value (literal)', { kind: 'defend' }, 'kind', 'must be attack', 'must be attack'],
    ['unrecognized_keys', { extra: 1 }, '(body)', 'does not take the field "extra"; its fields are range, side, units, sides, name, strength, count, kind, dice, step, hex, code, start, scores, fight, purpose, morale, check', 'does not take the field "extra"'],
    ['invalid_union (every form refused the value)', { dice: true }, 'dice', 'must be text or a list', 'must be text or a list'],
    ['invalid_union (one form came closer)', { dice: [1, 'x'] }, 'dice[1]', 'must be a whole number, not text', 'must be a number, not text'],
    ['invalid_union (discriminator)', { fight: { kind: 'charge' } }, 'fight.kind', 'must be one of battle, assault', 'must be one of battle, assault'],
    ['not_multiple_of', { step: 7 }, 'step', 'must be a multiple of 5', 'must be a multiple of 5'],
    ['invalid_format (regex, described)', { hex: '12' }, 'hex', 'is not in the expected form: a hex number such as 0912', 'is not in the expected form (the pattern /^\\d{4}$/)'],
    ['invalid_format (regex)', { code: 'ab' }, 'code', 'is not in the expected form (the pattern /^[A-Z]$/)', 'is not in the expected form (the pattern /^[A-Z]$/)'],
    ['invalid_format (datetime)', { start: 'tomorrow' }, 'start', 'must be a date and time such as 2026-11-27T05:20:00Z', 'must be a date and time such as 2026-11-27T05:20:00Z'],
    ['invalid_key', { scores: { B: 1 } }, 'scores.B', 'is not an accepted key: it is not in the expected form (the pattern /^[a-z]+$/)', 'is not an accepted key: it is not in the expected form (the pattern /^[a-z]+$/)'],
    ['custom (superRefine: its words are kept)', { purpose: 'a#b' }, 'purpose', 'must not contain "#": the chat reads it as a command', 'must not contain "#": the chat reads it as a command'],
    ["custom (refine without words)", { check: 'x' }, 'check', 'is not accepted here', 'is not accepted here'],
    ["a check's own message is kept", { morale: -1 }, 'morale', 'morale is never below 0', 'morale is never below 0'],
  ];

  it.each(cases)('%s', (_code, change, field, rich, plain) => {
    const words = wordsFor(change);
    expect(words.rich.map((i) => [i.field, i.message])).toEqual([[field, rich]]);
    expect(words.plain.map((i) => [i.field, i.message])).toEqual([[field, plain]]);
  });

  it('says a missing field is required, and what it takes', () => {
    expect(wordsFor({}, 'units').rich).toEqual([{ field: 'units', message: 'is required: a list' }]);
    expect(wordsFor({}, 'range').rich).toEqual([{ field: 'range', message: 'is required: a whole number' }]);
  });

  it('lists the valid values beside the words of an enum or a discriminator', () => {
    expect(wordsFor({ side: 'soviet' }).rich[0].valid).toEqual(['allied', 'axis']);
    expect(wordsFor({ fight: { kind: 'charge' } }).rich[0].valid).toEqual(['battle', 'assault']);
  });

  it('never answers in zod\'s schema text', () => {
    for (const [, change] of cases) {
      for (const issue of [...wordsFor(change).rich, ...wordsFor(change).plain]) {
        expect(issue.message).not.toMatch(/Too small|Too big|Invalid input|Invalid option|expected \w+, received|Unrecognized key|>=|<=/);
      }
    }
  });

  it('prefixes the field with where the value sat in the request', () => {
    const parsed = z.strictObject({ units: z.array(z.string()).min(1) }).safeParse({ units: [] }, IN_WORDS);
    expect(fieldIssues(parsed.error!, 'payload')).toEqual([{ field: 'payload.units', message: 'needs at least 1 item' }]);
  });
});
