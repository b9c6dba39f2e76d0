import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBundle } from '../../domain/verify/verifyBundle';
import { verifyExport } from '../../domain/verify/verifyExport';
import { BUNDLE, LAMBDA_ENTRIES, type LambdaName } from '../../infra/bundling';
import { buildBundles } from '../../infra/build';
import { startFakeSecretsManager } from '../support/fakeSecretsManager';
import { startLoopbackDynamo } from '../support/loopbackDynamo';
import { run, writeTemp } from '../support/runCli';
import { buildVerifierBundle } from '../../verifier/bundle';
import { buildWebAssets } from '../../web/build';
import { WEB_CONTENT_SECURITY_POLICY } from '../../functions/http/webHandlers';
import { API_DOCS_CONTENT_SECURITY_POLICY, API_DOCS_SCRIPT, apiDocsAssetsFromPackage } from '../../functions/http/apiDocsHandlers';
import { gunzipSync } from 'node:zlib';

const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:000000000000:secret:arbiter-signing';
const SEED_SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:000000000000:secret:arbiter-seed-key';
let bundles: Awaited<ReturnType<typeof buildBundles>>;
let dynamo: Awaited<ReturnType<typeof startLoopbackDynamo>>;
let secrets: Awaited<ReturnType<typeof startFakeSecretsManager>>;

beforeAll(async () => {
  bundles = await buildBundles(join(mkdtempSync(join(tmpdir(), 'arbiter-bundles-')), 'lambda'));
  dynamo = await startLoopbackDynamo('arbiter-bundle-test');
  secrets = await startFakeSecretsManager({ [SECRET_ARN]: 'a'.repeat(64), [SEED_SECRET_ARN]: 'b'.repeat(64) });
});
afterAll(async () => {
  await dynamo?.close();
  await secrets?.close();
});

const event = (method: string, path: string, template: string, options: { body?: unknown; token?: string; params?: Record<string, string>; query?: Record<string, string>; headers?: Record<string, string> } = {}) => ({
  version: '2.0',
  routeKey: `${method} ${template}`,
  rawPath: path,
  rawQueryString: new URLSearchParams(options.query ?? {}).toString(),
  headers: { 'content-type': 'application/json', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
  queryStringParameters: options.query,
  pathParameters: options.params,
  requestContext: { http: { method, path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' }, requestId: 'r', routeKey: `${method} ${template}`, stage: '$default', timeEpoch: Date.now() },
  body: options.body === undefined ? undefined : JSON.stringify(options.body),
  isBase64Encoded: false,
});

/** Runs a bundle in a fresh Node process, as Lambda would, with the AWS endpoints on loopback. */
async function invoke(name: LambdaName, events: unknown[]) {
  const resultsFile = writeTemp('results.json', '');
  const result = await run('node', ['test/infra/invokeBundle.mjs', bundles[name].file, writeTemp('events.json', JSON.stringify(events)), resultsFile], {
    TABLE_NAME: dynamo.tableName,
    SIGNING_KEY_SECRET_ARN: SECRET_ARN,
    // As the stack wires it: only the commands function may open seeds.
    ...(name === 'commands' ? { SEED_KEY_SECRET_ARN: SEED_SECRET_ARN } : {}),
    AWS_REGION: 'eu-west-1',
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    POWERTOOLS_DEV: 'false',
  });
  expect(result.code, result.stderr).toBe(0);
  const { results, loadMs } = JSON.parse(readFileSync(resultsFile, 'utf8')) as { loadMs: number; results: { statusCode: number; headers: Record<string, string>; body: string; isBase64Encoded?: boolean }[] };
  return { loadMs, logs: result.stdout + result.stderr, replies: results.map((r) => ({ ...r, json: r.headers['content-type']?.startsWith('application/json') && r.body ? JSON.parse(r.body) : undefined })) };
}

describe('the built Lambda bundles', () => {
  it('are each at most 500 KB minified', () => {
    for (const name of Object.keys(LAMBDA_ENTRIES) as LambdaName[]) expect(bundles[name].bytes).toBeLessThanOrEqual(BUNDLE.maxBytes);
  });

  it('are the sizes the README reports, within 10 KB', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const name of Object.keys(LAMBDA_ENTRIES) as LambdaName[]) {
      const reported = Number(readme.match(new RegExp(`\\| ${name} \\| (\\d+) KB \\|`))?.[1]);
      expect(Math.abs(reported - bundles[name].bytes / 1024), `README size of ${name}`).toBeLessThanOrEqual(10);
    }
  });

  it('answer a whole game across the three functions, reading the signing secret once per process', async () => {
    const readsBefore = secrets.reads();
    const created = await invoke('commands', [event('POST', '/games', '/games', { body: { ruleset: 'dice', title: 'on Lambda' } })]);
    expect(created.replies[0].statusCode).toBe(201);
    const game = created.replies[0].json;

    const commands = await invoke('commands', [
      event('POST', `/games/${game.gameId}/commands`, '/games/{id}/commands', { token: game.tokens.players.player1, params: { id: game.gameId }, body: { commandId: 'r1', type: 'Roll', payload: { dice: '3d6', purpose: 'lambda roll' } } }),
      event('POST', `/games/${game.gameId}/commands`, '/games/{id}/commands', { token: game.tokens.players.player1, params: { id: game.gameId }, body: { commandId: 'r1', type: 'Roll', payload: { dice: '3d6', purpose: 'lambda roll' } } }),
      event('POST', `/games/${game.gameId}/commands`, '/games/{id}/commands', { token: game.tokens.organizer, params: { id: game.gameId }, body: { commandId: 'seal', type: 'Seal', payload: {} } }),
      event('POST', `/games/${game.gameId}/commands`, '/games/{id}/commands', { params: { id: game.gameId }, body: { commandId: 'x', type: 'Roll', payload: {} } }),
    ]);
    expect(commands.replies.map((r) => r.statusCode)).toEqual([201, 200, 201, 401]);
    expect(commands.replies[1].json.commit).toEqual(commands.replies[0].json.commit);

    const reads = await invoke('reads', [
      event('GET', `/games/${game.gameId}`, '/games/{id}', { token: game.tokens.players.player2, params: { id: game.gameId } }),
      event('GET', `/games/${game.gameId}/events`, '/games/{id}/events', { token: game.tokens.players.player2, params: { id: game.gameId }, query: { after: '1' } }),
      event('GET', `/games/${game.gameId}/export`, '/games/{id}/export', { token: game.tokens.players.player2, params: { id: game.gameId } }),
      event('GET', `/games/${game.gameId}/verify`, '/games/{id}/verify', { token: game.tokens.players.player2, params: { id: game.gameId } }),
      event('GET', '/keys', '/keys'),
    ]);
    expect(reads.replies.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(reads.replies[0].json).toMatchObject({ version: 3, sealed: true, state: { rolls: 1 } });
    expect(reads.replies[1].headers.etag).toBe('"3"');
    expect(verifyBundle(reads.replies[2].json)).toMatchObject({ ok: true, checkedDice: 3 });
    expect(reads.replies[3].json.ok).toBe(true);
    expect(reads.replies[4].json.keys[0].kid).toBe(commands.replies[0].json.commit.kid);

    // Each secret read once per fresh process, not once per request: two commands processes
    // read the signing and the seed secrets, the reads process only the signing secret.
    expect(secrets.reads() - readsBefore).toBe(5);
    // Structured logs: the request records are there; the tokens and the secret are not.
    const logs = created.logs + commands.logs + reads.logs;
    expect(logs).toContain('"commandType":"Roll"');
    for (const secret of ['a'.repeat(64), 'b'.repeat(64), game.tokens.organizer, game.tokens.players.player1]) expect(logs).not.toContain(secret);
  });

  it('rotate the signing key with npm run rotate-key:aws: new processes sign with the new key and publish the log; the old pin still verifies', async () => {
    const before = (await invoke('reads', [event('GET', '/keys', '/keys')])).replies[0].json;
    const created = (await invoke('commands', [event('POST', '/games', '/games', { body: { ruleset: 'dice' } })])).replies[0].json;
    const aws = { AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint };
    const rotated = await run('npm', ['run', '--silent', 'rotate-key:aws', '--', SECRET_ARN], aws);
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.stdout).toContain(`retired: ${before.keys[0].fingerprint}`);

    const params = { params: { id: created.gameId } };
    const played = await invoke('commands', [
      event('POST', `/games/${created.gameId}/commands`, '/games/{id}/commands', { ...params, token: created.tokens.players.player1, body: { commandId: 'r', type: 'Roll', payload: { dice: '2d6', purpose: 'after rotation' } } }),
      event('POST', `/games/${created.gameId}/commands`, '/games/{id}/commands', { ...params, token: created.tokens.organizer, body: { commandId: 's', type: 'Seal', payload: {} } }),
    ]);
    expect(played.replies.map((r) => r.statusCode)).toEqual([201, 201]);
    const [keys, exported] = (await invoke('reads', [event('GET', '/keys', '/keys'), event('GET', `/games/${created.gameId}/export`, '/games/{id}/export', { ...params, token: created.tokens.organizer })])).replies;
    expect(keys.json.keys.map((k: { fingerprint: string; status: string }) => [k.fingerprint === before.keys[0].fingerprint, k.status])).toEqual([[false, 'current'], [true, 'retired']]);
    expect(keys.json.log).toHaveLength(1);
    expect(exported.json.commits.map((c: { kid: string }) => c.kid)).toEqual([before.keys[0].kid, keys.json.keys[0].kid, keys.json.keys[0].kid]);
    expect(verifyExport(exported.json, { trusted: [before.keys[0].fingerprint] })).toMatchObject({ ok: true, exitCode: 0 });
  });

  it('serve the standalone verifier at GET /verifier.mjs from a function that holds nothing else', async () => {
    const readsBefore = secrets.reads();
    const served = await invoke('verifier', [event('GET', '/verifier.mjs', '/verifier.mjs')]);
    const [reply] = served.replies;
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(reply.body).toBe(await buildVerifierBundle());
    expect(secrets.reads()).toBe(readsBefore);
  });

  it('serve the web app at GET / and /assets/{file} from a function that holds nothing else', async () => {
    const readsBefore = secrets.reads();
    const built = await buildWebAssets();
    const served = await invoke('web', [
      event('GET', '/', '/'),
      event('GET', '/assets/app.js', '/assets/{file}', { params: { file: 'app.js' } }),
      event('GET', '/assets/app.css', '/assets/{file}', { params: { file: 'app.css' } }),
      event('GET', '/assets/other.js', '/assets/{file}', { params: { file: 'other.js' } }),
    ]);
    const [page, js, css, missing] = served.replies;
    expect(served.replies.map((r) => r.statusCode)).toEqual([200, 200, 200, 404]);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(WEB_CONTENT_SECURITY_POLICY);
    expect(page.body).toBe(built.get('/')!.body);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.body).toBe(built.get('/assets/app.js')!.body);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    for (const reply of [page, js, css]) expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(missing.json.error.code).toBe('not_found');
    expect(secrets.reads()).toBe(readsBefore);
  });

  it('serve the API reference at GET /docs, its script gzipped when the client accepts it, from a function that holds nothing else', async () => {
    const readsBefore = secrets.reads();
    const script = (await apiDocsAssetsFromPackage()).get(API_DOCS_SCRIPT)!;
    const file = API_DOCS_SCRIPT.split('/').at(-1)!;
    const served = await invoke('docs', [
      event('GET', '/docs', '/docs'),
      event('GET', API_DOCS_SCRIPT, '/docs/assets/{file}', { params: { file }, headers: { 'accept-encoding': 'gzip, br' } }),
      event('GET', API_DOCS_SCRIPT, '/docs/assets/{file}', { params: { file } }),
      event('GET', '/docs/assets/other.js', '/docs/assets/{file}', { params: { file: 'other.js' } }),
    ]);
    const [page, gzipped, plain, missing] = served.replies;
    expect(served.replies.map((r) => r.statusCode)).toEqual([200, 200, 200, 404]);
    expect(page.headers['content-security-policy']).toBe(API_DOCS_CONTENT_SECURITY_POLICY);
    expect(page.body).toContain(`src="${API_DOCS_SCRIPT}"`);
    expect([gzipped.headers['content-encoding'], gzipped.isBase64Encoded]).toEqual(['gzip', true]);
    expect(gunzipSync(Buffer.from(gzipped.body, 'base64')).toString('utf8')).toBe('body' in script ? script.body : '');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('body' in script ? script.body : '');
    expect(missing.json.error.code).toBe('not_found');
    expect(secrets.reads()).toBe(readsBefore);
  });

  it('serves the catalogue without the table or the secret', async () => {
    const readsBefore = secrets.reads();
    const catalogue = await invoke('catalogue', [
      event('GET', '/health', '/health'),
      event('GET', '/rulesets', '/rulesets'),
      event('POST', '/rulesets/dice/evaluate', '/rulesets/{ruleset}/evaluate', { params: { ruleset: 'dice' }, body: { procedure: 'roll', input: { dice: '2d6' }, dice: [3, 4] } }),
      event('GET', '/openapi.json', '/openapi.json'),
      event('GET', '/keys', '/keys'),
    ]);
    expect(catalogue.replies.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 404]);
    expect(catalogue.replies[2].json.result.total).toBe(7);
    expect(secrets.reads()).toBe(readsBefore);
  });
});
