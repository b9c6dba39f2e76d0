import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GameService } from '../../functions/application/gameService';
import { createHandlers } from '../../functions/http/handlers';
import { OPERATIONS, type Operation } from '../../functions/http/operations';
import type { HttpEvent } from '../../functions/http/respond';

/** What the handlers' observer saw fail unexpectedly: the sentinel below when the handler ran. */
const unexpected: unknown[] = [];
const quiet = { unexpected: (error: Error) => void unexpected.push(error), request: () => {} };
const HANDLER_RAN = new Error('the handler ran');
/** A service that is never reached when the request is refused at the edge: reaching it is a 500. */
const unreachable = async (): Promise<GameService> => {
  throw HANDLER_RAN;
};
/** Its answer is the 500 of the handler asking for the service, not a failure of the step before it. */
const handlerRan = (reply: { statusCode?: number }) => {
  const seen = unexpected.splice(0);
  return reply.statusCode === 500 && seen.length === 1 && seen[0] === HANDLER_RAN;
};
const handlers = createHandlers(unreachable, async () => '', quiet);

const eventOf = (operation: Operation, query: Record<string, string>): HttpEvent => {
  const pathParameters = Object.fromEntries((operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => [p.name, 'no-such-thing']));
  return {
    version: '2.0',
    routeKey: `${operation.method} ${operation.path}`,
    rawPath: operation.path,
    rawQueryString: new URLSearchParams(query).toString(),
    headers: { authorization: 'Bearer arb_x' },
    queryStringParameters: query,
    pathParameters,
    requestContext: { http: { method: operation.method, path: operation.path }, requestId: 'r' },
    isBase64Encoded: false,
  } as unknown as HttpEvent;
};

const queried = OPERATIONS.filter((o) => o.parameters?.some((p) => p.in === 'query'));

describe("the operations table's parameters are the request's validation", () => {
  it('has operations with a query, so the checks below check something', () => {
    expect(queried.map((o) => o.operationId).sort()).toEqual(['confirmPage', 'confirmSubscription', 'exportTournament', 'getTournament', 'listEvents', 'unsubscribeByLink', 'unsubscribePage']);
  });

  for (const operation of queried) {
    for (const parameter of operation.parameters!.filter((p) => p.in === 'query')) {
      it(`${operation.operationId}: ?${parameter.name}= out of its form is a 400 naming it, before the handler runs`, async () => {
        const reply = await handlers[operation.handler](eventOf(operation, { [parameter.name]: '-1 not a value' }));
        expect(reply.statusCode).toBe(400);
        const { error } = JSON.parse(String(reply.body));
        expect(error.code).toBe('invalid_request');
        expect(error.details.issues.map((i: { field: string }) => i.field)).toEqual([parameter.name]);
      });
    }

    it(`${operation.operationId}: every refused parameter is named in one answer, in the table's order`, async () => {
      const names = operation.parameters!.filter((p) => p.in === 'query').map((p) => p.name);
      const reply = await handlers[operation.handler](eventOf(operation, Object.fromEntries(names.map((name) => [name, 'x y']))));
      expect(JSON.parse(String(reply.body)).error.details.issues.map((i: { field: string }) => i.field)).toEqual(names);
    });

    it(`${operation.operationId}: a query that fits reaches the handler`, async () => {
      const reply = await handlers[operation.handler](eventOf(operation, { limit: '1' }));
      // The handler ran and asked for the service, which this test withholds.
      expect(handlerRan(reply)).toBe(true);
    });
  }

  it('lets any path segment through to the handler: an id nothing has stays the 404 it answers', async () => {
    for (const operation of OPERATIONS.filter((o) => o.parameters?.some((p) => p.in === 'path') && o.group !== 'docs' && o.group !== 'web' && o.group !== 'catalogue')) {
      const reply = await handlers[operation.handler](eventOf(operation, {}));
      expect(handlerRan(reply), operation.operationId).toBe(true);
    }
  });

  it('leaves no handler reading the raw query or path: adding an endpoint is a table entry and a handler', () => {
    const dir = join(import.meta.dirname, '../../functions/http');
    const handlerFiles = readdirSync(dir).filter((name) => name.endsWith('Handlers.ts'));
    expect(handlerFiles.length).toBeGreaterThanOrEqual(6);
    for (const name of handlerFiles) {
      const source = readFileSync(join(dir, name), 'utf8');
      expect(source, name).not.toMatch(/queryStringParameters|pathParameters|rawQueryString/);
    }
  });
});
