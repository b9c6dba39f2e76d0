import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EntropyLocked, Forbidden, GameSealed, InsufficientDice, InvalidDieValue, RuleViolation } from '../../domain/errors';
import { commandIdReused, invalidRequest, notFound, unauthenticated, versionConflict } from '../../functions/application/errors';
import { ERROR_CATALOGUE, ERROR_CODES, errorEntry, type ErrorCode } from '../../functions/http/errorCatalogue';
import { toErrorResponse } from '../../functions/http/middleware';
import { openApiDocument } from '../../functions/http/openapi';

const ROOT = join(import.meta.dirname, '..', '..');

/** The rows `| status | `code` | … |` of a doc's error table. */
function errorRows(doc: string): Map<string, { status: number; text: string }> {
  const rows = new Map<string, { status: number; text: string }>();
  for (const match of readFileSync(join(ROOT, 'docs', doc), 'utf8').matchAll(/^\| (\d{3}) \| `([a-z_]+)` \|(.*)$/gm)) rows.set(match[2], { status: Number(match[1]), text: match[3] });
  return rows;
}

describe('the error catalogue', () => {
  it('gives each refusal of the application the status it is answered with', () => {
    const refusals = [invalidRequest([{ field: 'title', message: 'too long' }]), notFound(), unauthenticated(), versionConflict(3), commandIdReused(2)];
    for (const refusal of refusals) expect(ERROR_CATALOGUE[refusal.code as ErrorCode].status, refusal.code).toBe(refusal.status);
  });

  it("answers each refusal of the rules with its code and the catalogue's status", () => {
    const refusals = [new RuleViolation('No turn yet.', 'dice: a turn first'), new EntropyLocked(), new Forbidden('Not yours.'), new GameSealed(), new InsufficientDice(2), new InvalidDieValue(0, 7, 6)];
    const answers = refusals.map((refusal) => {
      const answer = toErrorResponse(refusal);
      return [JSON.parse(answer.body as string).error.code, answer.statusCode];
    });
    expect(answers).toEqual([
      ['rule_violation', 422],
      ['entropy_locked', 422],
      ['forbidden', 403],
      ['game_sealed', 409],
      ['insufficient_dice', 400],
      ['invalid_request', 400],
    ]);
    for (const [code, status] of answers) expect(errorEntry(code).status).toBe(status);
  });

  it('documents every error answer with its code, and Retry-After wherever the catalogue says the answer carries it', () => {
    const paths = openApiDocument().paths;
    for (const [path, methods] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(operation.responses as Record<string, { headers?: object; content?: { 'application/json'?: { examples?: object }; 'text/html'?: object } }>)) {
          if (Number(status) < 400) continue;
          // An e-mail link's page (text/html) says in words that the link no longer works: a page for people, no error code.
          if (!response.content?.['application/json'] && 'text/html' in (response.content ?? {})) continue;
          const codes = Object.keys(response.content?.['application/json']?.examples ?? {}) as ErrorCode[];
          expect(codes.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
          for (const code of codes) expect(errorEntry(code).status, `${method} ${path} ${code}`).toBe(Number(status));
          expect(Boolean(response.headers), `${method} ${path} ${status} Retry-After`).toBe(codes.some((code) => errorEntry(code).retryAfter));
        }
      }
    }
  });

  for (const doc of ['api.md', 'http-api.md']) {
    it(`is the error table of docs/${doc}: every code with its status, Retry-After where the answer carries it`, () => {
      const rows = errorRows(doc);
      expect([...rows.keys()].sort()).toEqual([...ERROR_CODES].sort());
      for (const code of ERROR_CODES) {
        expect(rows.get(code)!.status, code).toBe(errorEntry(code).status);
        expect(rows.get(code)!.text.includes('Retry-After'), `${code} Retry-After`).toBe(Boolean(errorEntry(code).retryAfter));
      }
    });
  }
});
