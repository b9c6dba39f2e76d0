import { describe, expect, it } from 'vitest';
import { jsonProblem, MAX_JSON_DEPTH } from '../../../functions/http/jsonLimits';

const nested = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth));

describe('the limits of a request body', () => {
  it('finds lone surrogates anywhere, in strings and in keys', () => {
    expect(jsonProblem({ a: { b: ['ok', 'x\udfffy'] } })?.field).toBe('a.b[1]');
    expect(jsonProblem({ a: { ['\ud800']: 1 } })?.field).toBe('a.\ud800');
    expect(jsonProblem({ a: '\u{1F600}', b: [1, null, true] })).toBeUndefined();
  });

  it('refuses a member named __proto__ anywhere, which schemas would silently drop', () => {
    expect(jsonProblem(JSON.parse('{"ruleset":"france44","options":{"__proto__":{"polluted":true}}}'))).toEqual({ field: 'options.__proto__', message: 'is not a field of any request' });
    expect(jsonProblem(JSON.parse('[{"__proto__":1}]'))?.field).toBe('[0].__proto__');
    expect(jsonProblem({ constructor: 1, prototype: { toString: 'x' } })).toBeUndefined();
  });

  it(`takes ${MAX_JSON_DEPTH} levels and refuses one more, without recursion even at 100,000`, () => {
    expect(jsonProblem(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(jsonProblem(nested(MAX_JSON_DEPTH + 1))?.message).toMatch(/nested more than 64 levels/);
    expect(jsonProblem(nested(100_000))?.message).toMatch(/nested more than 64 levels/);
    expect(jsonProblem({ payload: { deep: nested(100) } })?.field).toMatch(/^payload\.deep(\[0\])+$/);
  });
});
