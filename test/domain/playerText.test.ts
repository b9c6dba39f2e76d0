import { describe, expect, it } from 'vitest';
import { playerId, playerText } from '../../domain/playerText';

const messages = (value: unknown, schema = playerId) => {
  const parsed = schema.safeParse(value);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
};
const UNSAFE = 'must not contain control characters, line breaks or text-direction controls';

describe('ids players choose', () => {
  it('accept any printable text of 1 to 64 characters, in any script', () => {
    for (const id of ['709', '21. Panzer', 'Hélène', 'الفرقة 21', '第1師団', '🪖 Rangers', ' 2nd Armored ', 'x'.repeat(64), '__proto__']) {
      expect(messages(id)).toEqual([]);
    }
  });

  it('refuse an empty, a blank or a too long id, saying so', () => {
    expect(messages('')).toEqual(['must not be empty']);
    expect(messages('   ')).toEqual(['must not be blank']);
    expect(messages('\u00a0\u3000')).toEqual(['must not be blank']);
    // Found by the reliability fuzzing: names that print as nothing at all.
    for (const invisible of ['\u200b', '\u200b\u200d', '\u00ad', '\u2800', '\u3164', ' \ufeff ']) expect(messages(invisible), JSON.stringify(invisible)).toEqual(['must not be blank']);
    expect(messages('x'.repeat(65))).toEqual(['must be at most 64 characters']);
  });

  const unsafe: [string, string][] = [
    ['a line feed', '709 ID: die 6 -> no effect [4c1d9e2a]\n#3 allied Resign'],
    ['a carriage return', 'a\rb'],
    ['a tab', 'a\tb'],
    ['a vertical tab', 'a\u000bb'],
    ['a form feed', 'a\u000cb'],
    ['a NUL', 'a\u0000b'],
    ['an escape', 'a\u001b[2Jb'],
    ['a DEL', 'a\u007fb'],
    ['a next-line (NEL)', 'a\u0085b'],
    ['a C1 control', 'a\u009bb'],
    ['a line separator', 'a\u2028b'],
    ['a paragraph separator', 'a\u2029b'],
    // Found by the reliability fuzzing: the marks too reorder what surrounds them.
    ['a right-to-left mark', 'a\u200fb'],
    ['a left-to-right mark', 'a\u200eb'],
    ['an Arabic letter mark', '7\u061c'],
    ['a left-to-right embedding', 'a\u202ab'],
    ['a right-to-left embedding', 'a\u202bb'],
    ['a pop directional formatting', 'a\u202cb'],
    ['a left-to-right override', 'a\u202db'],
    ['a right-to-left override', '\u202e709 ID'],
    ['a left-to-right isolate', 'a\u2066b'],
    ['a right-to-left isolate', 'a\u2067b'],
    ['a first-strong isolate', 'a\u2068b'],
    ['a pop directional isolate', 'a\u2069b'],
  ];
  for (const [what, id] of unsafe) {
    it(`refuse ${what}, in plain words`, () => {
      expect(messages(id)).toEqual([UNSAFE]);
    });
  }
});

describe('free text players write', () => {
  it('is one printable line of 1 to its maximum characters', () => {
    const purpose = playerText(200);
    expect(messages('bombardment of 2708 (Caen, "Goodwood")', purpose)).toEqual([]);
    expect(messages('x'.repeat(200), purpose)).toEqual([]);
    expect(messages('x'.repeat(201), purpose)).toEqual(['must be at most 200 characters']);
    expect(messages(' \t ', purpose)).toEqual(['must not be blank', UNSAFE]);
    expect(messages('first line\nsecond line', purpose)).toEqual([UNSAFE]);
    expect(messages('\u2067hidden\u2069', purpose)).toEqual([UNSAFE]);
  });
});
