import { describe, expect, it } from 'vitest';
import { canonicalJson, CanonicalJsonError, jsonEqual } from '../../domain/canonicalJson';

describe('canonicalJson (RFC 8785)', () => {
  it('sorts keys by UTF-16 code units, recursively', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    // U+00E9 (é) sorts before U+1F600 (surrogate pair D83D DE00) and after "z".
    expect(canonicalJson({ '\u{1F600}': 1, é: 2, z: 3 })).toBe('{"z":3,"é":2,"\u{1F600}":1}');
    // RFC 8785 §3.2.3 example: code-unit order puts "\r" before "1" and U+20AC before U+1F600.
    const keys = { '\u20ac': 'Euro Sign', '\r': 'Carriage Return', '\ufb33': 'Hebrew Letter Dalet With Dagesh', '1': 'One', '\u{1f600}': 'Emoji: Grinning Face', '\u0080': 'Control', '\u00f6': 'Latin Small Letter O With Diaeresis' };
    expect(canonicalJson(keys)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
        '"\u20ac":"Euro Sign","\u{1f600}":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('writes numbers as ECMAScript does', () => {
    expect(canonicalJson([0, -0, 1e21, 1e-7, 0.1, 333333333.3333333, 1e300, -5])).toBe('[0,0,1e+21,1e-7,0.1,333333333.3333333,1e+300,-5]');
  });

  it('escapes only what JSON must, with lowercase hex', () => {
    expect(canonicalJson('\u0000\b\t\n\f\r"\\/\u001f\u007f é')).toBe('"\\u0000\\b\\t\\n\\f\\r\\"\\\\/\\u001f\u007f é"');
  });

  it('leaves out undefined members and keeps empty containers', () => {
    expect(canonicalJson({ a: undefined, b: [], c: {} })).toBe('{"b":[],"c":{}}');
  });

  it('refuses what it cannot encode, naming where', () => {
    expect(() => canonicalJson({ a: [1, '\ud800'] })).toThrow(/a\[1\]/);
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(CanonicalJsonError);
    expect(() => canonicalJson({ a: Infinity })).toThrow(CanonicalJsonError);
    expect(() => canonicalJson({ ['\udc00']: 1 })).toThrow(CanonicalJsonError);
  });
});

describe('jsonEqual', () => {
  it('is equality of canonical JSON: key order aside, undefined members absent', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: null })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: [] }, { a: {} })).toBe(false);
    expect(jsonEqual({ a: '1' }, { a: 1 })).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });
});
