import { describe, expect, it } from 'vitest';
import { errorAnswer, errorCodeOf, errorLine } from '../../../functions/http/errorAnswer';
import { prefersText } from '../../../functions/http/respond';

describe('an error answer in the form Accept prefers', () => {
  it('prefers text/plain only when Accept weighs it above JSON', () => {
    expect([undefined, '', '*/*', 'application/json', 'text/plain, application/json', 'text/plain;q=0.2, application/*;q=0.3', 'text/plain;q=0', 'text/plain;q=x', 'text/*'].map(prefersText)).toEqual(
      Array(9).fill(false),
    );
    expect(['text/plain', 'TEXT/PLAIN; charset=utf-8', 'text/plain, */*;q=0.9', 'application/json;q=0.1, text/plain;q=0.2', 'text/html;q=0.9, text/plain'].map(prefersText)).toEqual(Array(5).fill(true));
  });

  it('writes one escaped line, the record keeping its code either way', () => {
    const text = errorAnswer('text/plain', 404, 'not_found', 'No file /assets/a\nb\u202e.', undefined, { 'retry-after': '1' });
    expect([text.statusCode, text.headers['content-type'], text.headers['retry-after'], text.body]).toEqual([404, 'text/plain; charset=utf-8', '1', '404 not_found: No file /assets/a\\nb\\u202e.\n']);
    expect(errorCodeOf(text)).toBe('not_found');
    const json = errorAnswer('application/json', 422, 'rule_violation', 'No.', { rule: 'r' });
    expect(JSON.parse(json.body!)).toEqual({ error: { code: 'rule_violation', message: 'No.', details: { rule: 'r' } } });
    expect(errorCodeOf(json)).toBe('rule_violation');
    expect(errorLine(400, 'invalid_request', 'Invalid request: `x` is required: text.', { issues: [{ field: 'x', message: 'is required: text' }] })).toBe('400 invalid_request: Invalid request: `x` is required: text.');
  });
});
