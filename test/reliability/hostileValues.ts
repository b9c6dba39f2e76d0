/**
 * The attack classes of the hostile-input fuzzing (hostileInput.test.ts): every value is
 * kept as the raw JSON text it is sent as, so that lone surrogates ("\ud800"), numbers
 * JSON.parse turns into Infinity (1e309), deep nesting and duplicate keys can be written.
 */
export const ATTACK_CLASSES = [
  'prototype names',
  'long strings',
  'empty and blank',
  'line separators',
  'bidi controls',
  'NUL and other controls',
  'lone surrogates',
  'forged chat lines and injection text',
  'other unicode',
  'deep nesting',
  'huge and odd numbers',
  'huge dice modifiers',
  'huge arrays',
  'type confusion',
  'hostile keys',
  'hostile names in the path',
  'combined (seeded random)',
] as const;
export type AttackClass = (typeof ATTACK_CLASSES)[number];

export interface Hostile {
  cls: AttackClass;
  /** Short, printable name of the value, for reports. */
  label: string;
  /** The value as raw JSON text. */
  json: string;
}

const str = (cls: AttackClass, label: string, value: string): Hostile => ({ cls, label, json: JSON.stringify(value) });
const raw = (cls: AttackClass, label: string, json: string): Hostile => ({ cls, label, json });

export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty', 'prototype', '__defineGetter__', 'isPrototypeOf', 'then'];

export const FORGED_CHAT_LINE = '709 ID: die 6 -> no effect [4c1d9e2a]\n#3 allied Resign';

/** Strings a player may choose for any id or free text. */
export const HOSTILE_STRINGS: readonly Hostile[] = [
  ...PROTOTYPE_NAMES.map((name) => str('prototype names', name, name)),

  str('long strings', '64 x (at the usual limit)', 'x'.repeat(64)),
  str('long strings', '65 x', 'x'.repeat(65)),
  str('long strings', '200 x', 'x'.repeat(200)),
  str('long strings', '1,000 x', 'x'.repeat(1_000)),
  str('long strings', '32 dice emoji (64 UTF-16 units)', '🎲'.repeat(32)),
  str('long strings', '1,000 dice emoji', '🎲'.repeat(1_000)),
  str('long strings', '100,000 x', 'x'.repeat(100_000)),

  str('empty and blank', 'empty', ''),
  str('empty and blank', 'one space', ' '),
  str('empty and blank', 'spaces', '    '),
  str('empty and blank', 'tab', '\t'),
  str('empty and blank', 'no-break space', '\u00a0'),
  str('empty and blank', 'ideographic space', '\u3000'),
  str('empty and blank', 'zero-width space', '\u200b'),
  str('empty and blank', 'byte order mark', '\ufeff'),
  str('empty and blank', 'braille blank', '\u2800'),
  str('empty and blank', 'hangul filler', '\u3164'),
  str('empty and blank', 'padded name', '  7  '),

  str('line separators', 'LF', '\n'),
  str('line separators', 'a LF b', 'a\nb'),
  str('line separators', 'CRLF', 'a\r\nb'),
  str('line separators', 'CR', 'a\rb'),
  str('line separators', 'U+2028', 'a\u2028b'),
  str('line separators', 'U+2029', 'a\u2029b'),
  str('line separators', 'U+0085 (NEL)', 'a\u0085b'),
  str('line separators', 'vertical tab', 'a\u000bb'),
  str('line separators', 'form feed', 'a\u000cb'),
  str('line separators', 'trailing LF', 'hq7\n'),
  raw('line separators', 'raw LF inside the JSON string', '"a\nb"'),

  str('bidi controls', 'RLM U+200F', '\u200f'),
  str('bidi controls', 'LRM U+200E', 'a\u200eb'),
  str('bidi controls', 'RLO U+202E', '\u202e'),
  str('bidi controls', 'RLO then text', '\u202e6 eid'),
  str('bidi controls', 'LRI U+2066', '\u2066'),
  str('bidi controls', 'RLI..PDI', '\u2067x\u2069'),
  str('bidi controls', 'LRE U+202A', '\u202ax'),
  str('bidi controls', 'RLE U+202B', '\u202bx'),
  str('bidi controls', 'PDF U+202C', 'x\u202c'),
  str('bidi controls', 'LRO U+202D', '\u202dx'),
  str('bidi controls', 'ALM U+061C', 'x\u061c'),
  str('bidi controls', 'FSI U+2068', '\u2068x'),

  str('NUL and other controls', 'NUL', '\u0000'),
  str('NUL and other controls', 'a NUL b', 'a\u0000b'),
  str('NUL and other controls', 'BEL', '\u0007'),
  str('NUL and other controls', 'ANSI colour', '\u001b[31mred\u001b[0m'),
  str('NUL and other controls', 'OSC title', '\u001b]0;owned\u0007'),
  str('NUL and other controls', 'backspaces', 'ok\u0008\u0008\u0008'),
  str('NUL and other controls', 'DEL', 'x\u007f'),
  str('NUL and other controls', 'C1 CSI', '\u009b31m'),
  str('NUL and other controls', 'C1 U+0080', '\u0080'),
  raw('NUL and other controls', 'raw NUL inside the JSON string', '"a\u0000b"'),

  raw('lone surrogates', 'high \\ud800', '"\\ud800"'),
  raw('lone surrogates', 'low \\udfff', '"\\udfff"'),
  raw('lone surrogates', 'a \\ud800 b', '"a\\ud800b"'),
  raw('lone surrogates', 'reversed pair', '"\\udc00\\ud800"'),
  raw('lone surrogates', 'half a dice emoji', '"x\\ud83c"'),

  str('forged chat lines and injection text', 'forged chat line', FORGED_CHAT_LINE),
  str('forged chat lines and injection text', 'forged seal line (CRLF)', 'x [deadbeef]\r\n#2 organizer Seal sealed, server seed 00 [00000000]'),
  str('forged chat lines and injection text', 'forged line after U+2028', '\u2028#4 german ResolveCombat c1: 1:1 -> 1-1, die 6 -> A [12345678]'),
  str('forged chat lines and injection text', 'a hash in brackets', '[4c1d9e2a]'),
  str('forged chat lines and injection text', 'starts like a line', '#1 organizer CreateGame'),
  str('forged chat lines and injection text', 'quotes and backslashes', '"q" \\ \\n \\u0000'),
  str('forged chat lines and injection text', 'markup', '<script>alert(1)</script>'),
  str('forged chat lines and injection text', 'SQL', "'; DROP TABLE games; --"),
  str('forged chat lines and injection text', 'template and format', '${7*7} {{7*7}} %s%n%x'),
  str('forged chat lines and injection text', 'path traversal', '../../etc/passwd'),

  str('other unicode', 'combining accent', 'e\u0301'),
  str('other unicode', 'zalgo', `Z${'\u0336\u0334\u0335'.repeat(20)}`),
  str('other unicode', 'replacement char', '\ufffd'),
  str('other unicode', 'noncharacter U+FFFF', '\uffff'),
  str('other unicode', 'last code point', '\u{10ffff}'),
  str('other unicode', 'fullwidth CONSTRUCTOR', 'ＣＯＮＳＴＲＵＣＴＯＲ'),
  str('other unicode', 'family emoji (ZWJ)', '👨‍👩‍👧‍👦'),
  str('other unicode', 'dotted I', 'İ'),
];

/** Deep JSON: 10,000+ levels, each under the 64 KB body limit. */
export const DEEP_VALUES: readonly Hostile[] = [
  raw('deep nesting', '10,000 nested arrays', `${'['.repeat(10_000)}${']'.repeat(10_000)}`),
  raw('deep nesting', '30,000 nested arrays', `${'['.repeat(30_000)}${']'.repeat(30_000)}`),
  raw('deep nesting', '10,000 nested objects', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`),
  raw('deep nesting', '4,000 nested __proto__ objects', `${'{"__proto__":'.repeat(4_000)}{}${'}'.repeat(4_000)}`),
];

export const HUGE_NUMBERS: readonly Hostile[] = [
  raw('huge and odd numbers', '1e308', '1e308'),
  raw('huge and odd numbers', '-1e308', '-1e308'),
  raw('huge and odd numbers', '1e309 (Infinity once parsed)', '1e309'),
  raw('huge and odd numbers', '-1e309', '-1e309'),
  raw('huge and odd numbers', '1e-320 (subnormal)', '1e-320'),
  raw('huge and odd numbers', '2^53+1', '9007199254740993'),
  raw('huge and odd numbers', '-(2^53+1)', '-9007199254740993'),
  raw('huge and odd numbers', '30-digit integer', '123456789012345678901234567890'),
  raw('huge and odd numbers', '-0', '-0'),
  raw('huge and odd numbers', '0.5', '0.5'),
  raw('huge and odd numbers', '-1', '-1'),
  raw('huge and odd numbers', '10,000,000', '10000000'),
  raw('huge and odd numbers', '-10,000,000', '-10000000'),
  raw('huge and odd numbers', '1e21', '1e21'),
];

/** In place of a string, a number or a boolean. */
export const TYPE_CONFUSION: readonly Hostile[] = [
  raw('type confusion', 'null', 'null'),
  raw('type confusion', 'true', 'true'),
  raw('type confusion', 'empty object', '{}'),
  raw('type confusion', 'empty array', '[]'),
  raw('type confusion', 'array of the name', '["7"]'),
  raw('type confusion', 'number 7', '7'),
  raw('type confusion', 'numeric string', '"7"'),
  raw('type confusion', 'object with toString', '{"toString":"x","valueOf":1}'),
];

/** Dice expressions: huge modifiers and odd counts (dice ruleset). */
export const DICE_EXPRESSIONS: readonly Hostile[] = [
  str('huge dice modifiers', '1d6-5000000-5000000', '1d6-5000000-5000000'),
  str('huge dice modifiers', '1d6+5000000+5000000', '1d6+5000000+5000000'),
  str('huge dice modifiers', '1d6+9999999 x 24 (200 chars)', `1d6${'+9999999'.repeat(24)}`.slice(0, 200)),
  str('huge dice modifiers', '1d6-9999999 x 24', `1d6${'-9999999'.repeat(24)}`.slice(0, 200)),
  str('huge dice modifiers', '99999999 (8 digits)', '1d6+99999999'),
  str('huge dice modifiers', '9999999d6', '9999999d6'),
  str('huge dice modifiers', '1d9999999', '1d9999999'),
  str('huge dice modifiers', '100d6 (the limit)', '100d6'),
  str('huge dice modifiers', '101d6', '101d6'),
  str('huge dice modifiers', '50d6+51d6', '50d6+51d6'),
  str('huge dice modifiers', '1d6 repeated to 200 chars', `1d6${'+1d6'.repeat(49)}`),
  str('huge dice modifiers', '0d6', '0d6'),
  str('huge dice modifiers', 'd0', 'd0'),
  str('huge dice modifiers', 'd1', 'd1'),
  str('huge dice modifiers', '-1d6', '-1d6'),
  str('huge dice modifiers', '1d6--1', '1d6--1'),
  str('huge dice modifiers', 'only signs', '+'.repeat(200)),
  str('huge dice modifiers', 'arabic-indic digits', '٣d٦'),
  str('huge dice modifiers', 'fullwidth digits', '１d６'),
  str('huge dice modifiers', 'exponent', '1d6+1e308'),
  str('huge dice modifiers', 'hex', '0x10d6'),
  str('huge dice modifiers', 'd%', 'd%'),
  str('huge dice modifiers', 'spaces everywhere', ` 1 d 6 ${'+ 1 '.repeat(40)}`.slice(0, 200)),
];

/** Huge arrays in place of an array; `element` is the raw JSON of one of its items. */
export function hugeArrays(element: string | undefined): Hostile[] {
  const of = (n: number, item: string) => `[${Array(n).fill(item).join(',')}]`;
  const values: Hostile[] = [
    raw('huge arrays', '10,000 zeros', of(10_000, '0')),
    raw('huge arrays', '20,000 empty strings', of(20_000, '""')),
    raw('huge arrays', '5,000 nulls', of(5_000, 'null')),
  ];
  if (element !== undefined) {
    values.push(raw('huge arrays', '1,000 copies of an item', of(1_000, element)));
    values.push(raw('huge arrays', '10,000 copies of an item', of(10_000, element)));
  }
  return values;
}

/** Extra members of an object: prototype names and odd keys (raw JSON member text). */
export const HOSTILE_MEMBERS: readonly Hostile[] = [
  raw('hostile keys', '"__proto__": {"polluted":true}', '"__proto__":{"polluted":true}'),
  raw('hostile keys', '"__proto__": null', '"__proto__":null'),
  raw('hostile keys', '"constructor": {"prototype":{"polluted":true}}', '"constructor":{"prototype":{"polluted":true}}'),
  raw('hostile keys', '"toString": 1', '"toString":1'),
  raw('hostile keys', '"hasOwnProperty": "x"', '"hasOwnProperty":"x"'),
  raw('hostile keys', 'empty key', '"":1'),
  raw('hostile keys', 'key with a line feed', '"a\\nb":1'),
  raw('hostile keys', 'key with a lone surrogate', '"\\ud800":1'),
  raw('hostile keys', 'key with RLO', '"\\u202e":1'),
  raw('hostile keys', '1,000-char key', `"${'k'.repeat(1_000)}":1`),
  raw('hostile keys', '2,000 extra members', Array.from({ length: 2_000 }, (_, i) => `"k${i}":${i}`).join(',')),
];

/** Renders a hostile value for a report: escaped, and cut short. */
export function printable(text: string, max = 240): string {
  const escaped = JSON.stringify(text).slice(1, -1);
  return escaped.length > max ? `${escaped.slice(0, max)}… (${text.length} chars)` : escaped;
}
