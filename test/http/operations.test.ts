import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorEntry } from '../../functions/http/errorCatalogue';
import { openApiDocument } from '../../functions/http/openapi';
import { isPublic, OPERATIONS } from '../../functions/http/operations';
import { ROUTES } from '../../functions/http/routes';
import { ROUTE_GROUPS } from '../../functions/lambda/routeGroups';

const OPERATION_KEYS = ['operationId', 'tags', 'summary', 'description', 'security', 'parameters', 'requestBody', 'responses'];

const fixture = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', name), 'utf8'));

describe('the operations table', () => {
  it('generates the OpenAPI document served before it existed, byte for byte but for the two corrections', () => {
    // openapi.before.json is GET /openapi.json as commit 39fc516 served it, before the table. A deliberate change of the
    // document (a new operation, a ruleset's schema) rewrites it: node --import tsx -e "import('./functions/http/openapi.ts').then((m) =>
    // require('node:fs').writeFileSync('test/http/fixtures/openapi.before.json', JSON.stringify(m.openApiDocument(), null, 1) + '\n'))"
    const before = fixture('openapi.before.json');
    // The one deliberate change: a 409 idempotency_key_in_use answer carries Retry-After (gameService.ts sets it), now documented from the error catalogue.
    const conflict = before.paths['/games'].post.responses['409'];
    before.paths['/games'].post.responses['409'] = { description: conflict.description, headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } }, content: conflict.content };
    // The listing's example names a next page: RapiDoc (GET /docs) throws on its null (test/web/apiReference.test.ts).
    before.paths['/tournaments/{id}'].get.responses['200'].content['application/json'].example.next = before.paths['/tournaments/{id}'].get.responses['200'].content['application/json'].example.games[0].gameId;
    // One operation (exportGame) listed its description after its parameters: the table writes every operation's fields in one order.
    for (const methods of Object.values(before.paths) as Record<string, Record<string, unknown>>[]) {
      for (const [method, operation] of Object.entries(methods)) methods[method] = Object.fromEntries(OPERATION_KEYS.filter((k) => k in operation).map((k) => [k, operation[k]]));
    }
    const [now, then] = [JSON.stringify(openApiDocument()), JSON.stringify(before)];
    // The documents are 700 KB: on a difference, show where it starts.
    let same = 0;
    while (same < then.length && now[same] === then[same]) same++;
    expect(now.slice(Math.max(0, same - 200), same + 200), 'the document from its first difference').toBe(then.slice(Math.max(0, same - 200), same + 200));
    expect(now.length).toBe(then.length);
  });

  it('routes every route to the same handler and Lambda function as before, so API Gateway gets the same route keys', () => {
    const routes = ROUTES.map((r) => {
      const group = Object.entries(ROUTE_GROUPS).find(([, handlers]) => handlers.includes(r.handler))?.[0];
      return { routeKey: `${r.method} ${r.path}`, handler: r.handler, group };
    });
    expect(routes).toEqual(fixture('routes.before.json'));
  });

  it('lets through API Gateway unauthorized the same routes as before: the catalogue, keys, public statistics, pages and creations', () => {
    const before = ['health', 'listRulesets', 'evaluate', 'openapi', 'tableSchema', 'validateTable', 'keys', 'publicStats', 'verifierScript', 'apiDocsPage', 'apiDocsAsset', 'webPage', 'webAsset', 'createGame', 'createTournament'];
    // Issue 33: an e-mail's confirm and unsubscribe links carry a code of their own, never a token.
    const mailLinks = ['confirmPage', 'confirmSubscription', 'unsubscribePage', 'unsubscribeByLink'];
    expect(OPERATIONS.filter((o) => isPublic(o.role)).map((o) => o.handler).sort()).toEqual([...before, ...mailLinks].sort());
  });

  it('declares each route, operationId and handler once', () => {
    const once = (values: string[]) => expect(new Set(values).size).toBe(values.length);
    once(OPERATIONS.map((o) => `${o.method} ${o.path}`));
    once(OPERATIONS.map((o) => o.operationId));
    once(OPERATIONS.map((o) => o.handler));
  });

  it('names only error codes of the catalogue, each under its own status', () => {
    for (const operation of OPERATIONS) {
      for (const spec of operation.errors) {
        if (typeof spec === 'number' || !spec[2]) continue;
        for (const code of spec[2]) expect(errorEntry(code)?.status, `${operation.operationId} ${code}`).toBe(spec[0]);
      }
    }
  });
});
