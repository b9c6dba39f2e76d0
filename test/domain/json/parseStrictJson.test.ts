import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../domain/canonicalJson';
import { MAX_JSON_DEPTH, parseStrictJson, type JsonLimits } from '../../../domain/json/parseStrictJson';
import { StrictJsonError } from '../../../domain/json/strictJsonError';

function refusal(text: string, limits?: number | Partial<JsonLimits>): StrictJsonError {
  try {
    parseStrictJson(text, limits);
  } catch (error) {
    expect(error).toBeInstanceOf(StrictJsonError);
    return error as StrictJsonError;
  }
  throw new Error(`accepted ${text.slice(0, 60)}`);
}

describe('parseStrictJson: reads what JSON.parse reads', () => {
  it('gives the same value for any JSON text (compact and indented)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, indent) => {
        const text = JSON.stringify(value, null, indent ? 2 : undefined);
        const expected = JSON.parse(text);
        const parsed = parseStrictJson(text);
        expect(parsed).toEqual(expected);
        expect(canonicalJson(parsed)).toBe(canonicalJson(expected));
      }),
      { numRuns: 2000 },
    );
  });

  it('reads the corners of the grammar as JSON.parse does', () => {
    for (const text of ['0', '-0', '1.5e3', '-12.25E-2', '1E+2', '9007199254740993', '"\\u00e9\\n\\t\\"\\\\\\/\\b\\f\\r"', '" \\ud83d\\ude00 😀"', ' \r\n\t[ ] ', '{}', '[[],{}]', 'true', 'false', 'null']) {
      expect(parseStrictJson(text), text).toEqual(JSON.parse(text));
    }
    expect(Object.is(parseStrictJson('-0'), -0)).toBe(true);
  });
});

describe('parseStrictJson: refuses what readers could disagree on', () => {
  it('refuses a key given twice in one object, naming the key and where', () => {
    expect(refusal('{"value":6,"value":4}').message).toBe('duplicate key "value" at line 1, column 12');
    const nested = refusal('{"commits":[{"seq":1},{"dice":[{"sides":6,"value":6,"value":4}]}]}');
    expect(nested.message).toBe('duplicate key "value" in commits[1].dice[0] at line 1, column 53');
    expect(nested.position).toBe(52);
    expect(refusal('{"a":{"x y":{"k":1,"k":1}}}').message).toMatch(/^duplicate key "k" in a\["x y"\] /);
  });

  it('allows the same key in different objects', () => {
    expect(parseStrictJson('[{"value":6},{"value":4}]')).toEqual([{ value: 6 }, { value: 4 }]);
  });

  it('refuses lone surrogates, escaped or raw, in strings and keys', () => {
    for (const text of ['"\\ud800"', '"\\udc00x"', '"a\\ud83d"', '{"\\ud800":1}', '"\ud800"', '["ok", "x\udfff"]', '"\\ude00\\ud83d"']) {
      expect(refusal(text).message, text).toMatch(/lone surrogate/);
    }
  });

  it('builds objects in which __proto__ is an ordinary key and never a prototype', () => {
    const value = parseStrictJson('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBeNull();
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(refusal('{"__proto__":1,"__proto__":2}').message).toMatch(/^duplicate key "__proto__"/);
  });

  it('refuses nesting deeper than the limit, without recursing', () => {
    const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    expect(() => parseStrictJson(deep(MAX_JSON_DEPTH))).not.toThrow();
    expect(refusal(deep(MAX_JSON_DEPTH + 1)).message).toBe(`arrays and objects nested deeper than ${MAX_JSON_DEPTH} levels at line 1, column ${MAX_JSON_DEPTH + 1}`);
    expect(refusal(deep(100_000)).message).toMatch(/nested deeper than 256 levels/);
    expect(refusal('{"a":'.repeat(100_000)).message).toMatch(/nested deeper than 256 levels/);
    // A reader that recursed would overflow the stack here; with no limit this one just reads it.
    expect(() => parseStrictJson(deep(100_000), Infinity)).not.toThrow();
  });

  it('refuses more arrays and objects, or more values, than its limits, as it reads them', () => {
    expect(parseStrictJson('[{},[],{"a":[]}]', { maxContainers: 5 })).toEqual([{}, [], { a: [] }]);
    expect(refusal('[{},[],{"a":[]},{}]', { maxContainers: 5 }).message).toBe('more than 5 arrays and objects at line 1, column 17');
    expect(parseStrictJson('[1,"two",null]', { maxValues: 4 })).toEqual([1, 'two', null]);
    expect(refusal('[1,"two",null,true]', { maxValues: 4 }).message).toBe('more than 4 values at line 1, column 20');
  });
});

describe('parseStrictJson: says where a text goes wrong', () => {
  it('names a truncated text as such, with the line and column', () => {
    const cut = refusal('{\n  "commits": [\n    {"seq": 1');
    expect(cut.message).toBe('the text ends inside an array or object (is it truncated?) in commits[0] at line 3, column 14');
    expect([cut.line, cut.column, cut.position]).toEqual([3, 14, 30]);
    expect(refusal('{"gameId": "g-1').message).toMatch(/^the text ends inside a string \(is it truncated\?\)/);
    expect(refusal('').message).toMatch(/^the text ends where a value should be/);
  });

  it('refuses every extension of the grammar', () => {
    const cases: Record<string, RegExp> = {
      '[1,]': /^unexpected "]" in \[1\] at line 1, column 4$/,
      '{"a":1,}': /^expected a key in double quotes/,
      "{'a':1}": /^expected a key in double quotes/,
      '[01]': /^expected ',' or ']'/,
      '[+1]': /^unexpected "\+"/,
      '[.5]': /^unexpected "\."/,
      '[1.]': /^expected ',' or ']'/,
      '[-]': /^a malformed number/,
      '[NaN]': /^unexpected "N"/,
      '[1e400]': /^a number too large/,
      '"tab\there"': /^a control character in a string must be escaped/,
      '"\\x41"': /^unknown escape \\x/,
      '"\\u12G4"': /^\\u must be followed by four hex digits/,
      '{"a" 1}': /^expected ':' after the key "a"/,
      '[1] [2]': /^unexpected text after the JSON value/,
      '// note\n{}': /^unexpected "\/"/,
      '\ufeff{}': /^unexpected "\ufeff"/,
    };
    for (const [text, message] of Object.entries(cases)) expect(refusal(text).message, text).toMatch(message);
  });
});
