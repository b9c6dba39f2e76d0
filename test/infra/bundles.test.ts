import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSocket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBundle } from '../../domain/verify/verifyBundle';
import { verifyExport } from '../../domain/verify/verifyExport';
import { ArbiterStack } from '../../infra/arbiterStack';
import { BUNDLE, esbuildOptions, LAMBDA_ENTRIES, type LambdaName } from '../../infra/bundling';
import { FUNCTION_ENTRIES } from '../../infra/functionEntries';
import { buildFunctionBundle, type FunctionBundle } from '../../infra/coldStart';
import { buildBundles } from '../../infra/build';
import { BEACON_ENTRIES, REVEAL_TIMEOUT } from '../../infra/beaconReveals';
import { startFakeKms } from '../support/fakeKms';
import { startKmsAsGranted, type KmsGrant } from './kmsAsGranted';
import { startLoopbackDynamo } from '../support/loopbackDynamo';
import { startTransactingProxy } from './transactingDynamo';
import { invokeBundle, run } from '../support/runCli';
import { buildVerifierBundle } from '../../verifier/bundle';
import { buildWebAssets } from '../../web/build';
import { WEB_CONTENT_SECURITY_POLICY } from '../../functions/http/webHandlers';
import { API_DOCS_CONTENT_SECURITY_POLICY, API_DOCS_SCRIPT, apiDocsAssetsFromPackage } from '../../functions/http/apiDocsHandlers';
import { gunzipSync } from 'node:zlib';
import { PENDING_REVEALS_KEY, pendingRevealSk } from '../../functions/store/dynamoPendingReveals';
import { beaconChainsFileText, startLoopbackRelay } from '../support/loopbackRelay';
import { testBeaconChain } from '../support/testBeaconChain';

// Loopback stand-ins of the keys infra/signing.ts creates: two Ed25519 signing keys (the second for a rotation), the seed key and the token key.
const REGION = 'eu-west-1';
const SIGNING_KEY = `arn:aws:kms:${REGION}:000000000000:key/signing-1`;
const NEXT_SIGNING_KEY = `arn:aws:kms:${REGION}:000000000000:key/signing-2`;
const SEED_KEY = `arn:aws:kms:${REGION}:000000000000:key/seeds`;
const TOKEN_KEY = `arn:aws:kms:${REGION}:000000000000:key/tokens`;
const KEYS = { signing: [SIGNING_KEY, NEXT_SIGNING_KEY], encrypt: [SEED_KEY], mac: [TOKEN_KEY] };
/** The push WebSocket's id, and a URL suffix that is no real host. */
const PUSH_API = 'push0api';
const URL_SUFFIX = 'aws.invalid';
const PUSH_URL = `wss://${PUSH_API}.execute-api.${REGION}.${URL_SUFFIX}/live`;
/** The push connections table (pk, sk strings, as infra/push.ts makes it), beside the game table in the same dynalite. */
const CONNECTIONS_TABLE = 'arbiter-bundle-test-connections';

let bundles: Awaited<ReturnType<typeof buildBundles>>;
let dynalite: Awaited<ReturnType<typeof startLoopbackDynamo>>;
/** dynalite behind a proxy that answers TransactWriteItems (transactingDynamo.ts). */
let dynamo: { endpoint: string; tableName: string; close: () => Promise<void> };
let kms: Awaited<ReturnType<typeof startFakeKms>>;
/** KMS as each function's role may use it: the grants of the synthesized stack, enforced on loopback (kmsAsGranted.ts). */
const kmsFor = {} as Record<LambdaName, Awaited<ReturnType<typeof startKmsAsGranted>>>;

type Resource = { Type: string; Properties: Record<string, any> };
/**
 * The stack as an operator has it before a first rotation (`-c signingKeys=2`, docs/deploy.md):
 * each function runs below with the environment and the KMS grants this template gives it.
 */
let deployed: { Resources: Record<string, Resource>; Outputs: Record<string, { Value: unknown }> };
const named = (logicalId: string) => logicalId.replace(/[0-9A-F]{8}$/, '');

/** The loopback stand-in of what the template names; anything without one fails the test, so a new setting is never passed on unread. */
function standIn(value: unknown): string {
  if (typeof value === 'string') return value;
  const v = value as { Ref?: string; 'Fn::GetAtt'?: [string, string]; 'Fn::Join'?: [string, unknown[]] };
  // ExportJobFunction: the export function's name, which commands invokes (infra/exportJob.ts); no request here starts a tournament export.
  // Connections: the push subscriptions' table, where the reads function leases its long polls' slots (infra/push.ts).
  const refs: Record<string, string> = { Commits: dynamo.tableName, Seeds: dynalite.seedTableName, PushConnections: CONNECTIONS_TABLE, PushApi: PUSH_API, ExportJobFunction: 'arbiter-export-job', 'AWS::Region': REGION, 'AWS::URLSuffix': URL_SUFFIX };
  const arns: Record<string, string> = { SigningKey1: SIGNING_KEY, SigningKey2: NEXT_SIGNING_KEY, SeedKey: SEED_KEY, TokenKey: TOKEN_KEY };
  if (v.Ref && refs[named(v.Ref)]) return refs[named(v.Ref)];
  if (v['Fn::GetAtt']?.[1] === 'Arn' && arns[named(v['Fn::GetAtt'][0])]) return arns[named(v['Fn::GetAtt'][0])];
  // The exports bucket: no export in these games comes near the size that is stored there (exports.ts), so its host is never asked.
  if (v['Fn::GetAtt']?.[1] === 'RegionalDomainName' && named(v['Fn::GetAtt'][0]) === 'ExportStorageExports') return `arbiter-exports.s3.${REGION}.${URL_SUFFIX}`;
  if (v['Fn::Join']) return v['Fn::Join'][1].map(standIn).join(v['Fn::Join'][0]);
  throw new Error(`no loopback stand-in for ${JSON.stringify(value)}: give it one in bundles.test.ts`);
}
const deployedFunction = (name: LambdaName) => {
  const found = Object.entries(deployed.Resources).filter(([id, r]) => r.Type === 'AWS::Lambda::Function' && named(id) === `${name[0].toUpperCase()}${name.slice(1)}Function`);
  expect(found, name).toHaveLength(1);
  return found[0][1];
};
/** A function's environment variables as the stack sets them, with the loopback stand-ins. */
const environmentOf = (name: LambdaName) => Object.fromEntries(Object.entries(deployedFunction(name).Properties.Environment?.Variables ?? {}).map(([k, v]) => [k, standIn(v)]));
/** A function's KMS statements as the stack grants them, with the loopback stand-ins of the keys. */
function kmsGrantsOf(name: LambdaName): KmsGrant[] {
  return kmsGrantsOfRole(deployedFunction(name).Properties.Role['Fn::GetAtt'][0]);
}
function kmsGrantsOfRole(role: string): KmsGrant[] {
  return Object.values(deployed.Resources)
    .filter((r) => r.Type === 'AWS::IAM::Policy' && (r.Properties.Roles as { Ref: string }[]).some((x) => x.Ref === role))
    .flatMap((p) => p.Properties.PolicyDocument.Statement as { Effect: 'Allow' | 'Deny'; Action: string | string[]; Resource: unknown; Condition?: KmsGrant['condition'] }[])
    .filter((s) => [s.Action].flat().some((a) => a.startsWith('kms:')))
    .map((s) => ({ effect: s.Effect, actions: [s.Action].flat(), resources: [s.Resource].flat().map(standIn), condition: s.Condition }));
}

beforeAll(async () => {
  bundles = await buildBundles(join(mkdtempSync(join(tmpdir(), 'arbiter-bundles-')), 'lambda'));
  dynalite = await startLoopbackDynamo('arbiter-bundle-test');
  const admin = new DynamoDBClient({ endpoint: dynalite.endpoint, region: REGION, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  await admin.send(
    new CreateTableCommand({
      TableName: CONNECTIONS_TABLE,
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'sk', AttributeType: 'S' }],
    }),
  );
  admin.destroy();
  dynamo = { ...(await startTransactingProxy(dynalite)), tableName: dynalite.tableName };
  kms = await startFakeKms({ signing: KEYS.signing, symmetric: [...KEYS.encrypt, ...KEYS.mac] });
  const app = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
  deployed = Template.fromStack(new ArbiterStack(app, 'Arbiter', { signingKeys: 2 })).toJSON() as typeof deployed;
  for (const name of Object.keys(LAMBDA_ENTRIES) as LambdaName[]) kmsFor[name] = await startKmsAsGranted(kms.endpoint, KEYS, kmsGrantsOf(name));
});
afterAll(async () => {
  for (const proxy of Object.values(kmsFor)) await proxy.close();
  await dynamo?.close();
  await dynalite?.close();
  await kms?.close();
});
/** The KMS calls a function made so far, as `Operation key` lines, refused ones marked. */
const kmsUse = (name: LambdaName) => kmsFor[name].calls.map((c) => `${c.operation} ${c.keyId}${c.refused ? ` REFUSED ${c.refused}` : ''}`);

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
async function invoke(name: LambdaName, events: unknown[], extraEnvironment: Record<string, string> = {}) {
  const { results: answers, loadMs, logs } = await invokeBundle(bundles[name].file, events, {
    ...extraEnvironment,
    // As the stack sets it (infra/arbiterStack.ts, infra/signing.ts, infra/push.ts): only commands is told it signs and given the seed and token keys.
    ...environmentOf(name),
    AWS_REGION: REGION,
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    AWS_ENDPOINT_URL_KMS: kmsFor[name].endpoint,
    POWERTOOLS_DEV: 'false',
  });
  const results = answers as { statusCode: number; headers: Record<string, string>; body: string; isBase64Encoded?: boolean }[];
  return { loadMs, logs, replies: results.map((r) => ({ ...r, json: r.headers['content-type']?.startsWith('application/json') && r.body ? JSON.parse(r.body) : undefined })) };
}

/** The functions beside the HTTP API's (push, sweep, reveal, notification delivery, export job), built as the stack builds them (sideFunction.ts: the project's bundling settings); push.test.ts runs the push ones. */
async function buildPushBundles(): Promise<Record<string, FunctionBundle>> {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-push-sizes-'));
  const built: Record<string, FunctionBundle> = {};
  for (const [name, entry] of Object.entries(FUNCTION_ENTRIES)) {
    if (!(name in LAMBDA_ENTRIES)) built[name] = await buildFunctionBundle(entry, join(dir, name, BUNDLE.outFile));
  }
  return built;
}
let everyBundle: Promise<Record<string, FunctionBundle>> | undefined;
/** Every function's bundle: the six `npm run build` writes, and the others. */
const allBundles = async (): Promise<Record<string, FunctionBundle>> => ({ ...bundles, ...(await (everyBundle ??= buildPushBundles())) });

/** The source files some chunks were built from, as their source maps list them. */
const sourcesOf = (chunks: readonly { file: string }[]): string[] => chunks.flatMap(({ file }) => JSON.parse(readFileSync(`${file}.map`, 'utf8')).sources as string[]);
/** Every file of a function's bundle: what its cold start loads and what it loads on demand. */
const everyChunk = (bundle: FunctionBundle) => [...bundle.coldStart, ...bundle.onDemand];
const RULESET_FOLDERS = ['dice', 'france44', 'normandy44', 'memoir44', 'table', 'warsandbattles', 'europa'];

describe('the built Lambda bundles', () => {
  it(`load at most ${BUNDLE.maxBytes / 1024} KB at a cold start (the entry file and the chunks it imports statically), every function of the stack, no exception`, async () => {
    const all = await allBundles();
    expect(Object.keys(all).sort()).toEqual(Object.keys(FUNCTION_ENTRIES).sort());
    // Every function the stack deploys with the project's code is one of them (those the CDK adds for itself run no code of ours).
    const ours = Object.values(deployed.Resources).filter((r) => r.Type === 'AWS::Lambda::Function' && r.Properties.Environment?.Variables?.POWERTOOLS_SERVICE_NAME);
    expect(ours).toHaveLength(Object.keys(FUNCTION_ENTRIES).length);
    for (const [name, { bytes }] of Object.entries(all)) {
      expect(bytes, `${name} at a cold start`).toBeLessThanOrEqual(BUNDLE.maxBytes);
    }
  });

  it('load no ruleset and no X-Ray SDK at a cold start: each ruleset is a chunk of its own, loaded by the first game of it; the X-Ray SDK by a sampled invocation', async () => {
    const all = await allBundles();
    for (const [name, bundle] of Object.entries(all)) {
      const cold = sourcesOf(bundle.coldStart);
      // The catalogue lists and evaluates every ruleset: it alone starts with them.
      if (name !== 'catalogue') expect(cold.filter((source) => source.includes('domain/rulesets/') && !source.endsWith('registry.ts')), name).toEqual([]);
      expect(cold.filter((source) => source.includes('node_modules/aws-xray-sdk-core/')), name).toEqual([]);
    }
    for (const name of ['commands', 'reads', 'revealBeacons', 'notifyDelivery', 'pushSocket', 'pushStream', 'pushFanOut', 'exportJob']) {
      const onDemand = sourcesOf(all[name].onDemand);
      for (const folder of RULESET_FOLDERS) expect(onDemand.some((source) => source.includes(`domain/rulesets/${folder}/`)), `${name}: ${folder}`).toBe(true);
      // Each ruleset's own files in one chunk, without another ruleset's: a game loads its ruleset, not the others.
      for (const chunk of all[name].onDemand) {
        const folders = new Set(sourcesOf([chunk]).flatMap((source) => RULESET_FOLDERS.filter((folder) => source.includes(`domain/rulesets/${folder}/`))));
        if (!sourcesOf([chunk]).some((source) => source.endsWith('domain/rulesets/registry.ts'))) expect(folders.size, `${name}: ${chunk.file}`).toBeLessThanOrEqual(1);
      }
    }
    expect(sourcesOf(all.commands.onDemand).some((source) => source.includes('node_modules/aws-xray-sdk-core/'))).toBe(true);
  });

  it('are the sizes the README reports at a cold start, within 10 KB, every function\'s (push, sweep, reveal, notification delivery and export job too); none carries nodemailer (SES builds the mail)', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    for (const [name, bundle] of Object.entries(await allBundles())) {
      const reported = Number(readme.match(new RegExp(`\\| ${name} \\| (\\d+) KB \\|`))?.[1]);
      expect(Math.abs(reported - bundle.bytes / 1024), `README size of ${name}`).toBeLessThanOrEqual(10);
      const mailer = sourcesOf(everyChunk(bundle)).some((source) => source.includes('node_modules/nodemailer/'));
      expect(mailer, `${name} bundles nodemailer`).toBe(false);
    }
  });

  it('answer a whole game across the three functions with the environment and KMS grants the stack gives them, reading each public key once per process', async () => {
    const publicKeysBefore = kms.calls('GetPublicKey');
    const signsBefore = kms.calls('Sign');
    const [commandsBefore, readsBefore] = [kmsFor.commands.calls.length, kmsFor.reads.calls.length];
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

    // The public key read once per fresh process (two commands processes and a reads one), not once per request;
    // only the commands processes sign (each new commit, and its signed head).
    expect(kms.calls('GetPublicKey') - publicKeysBefore).toBe(3);
    expect(kms.calls('Sign') - signsBefore).toBeGreaterThanOrEqual(2);
    // Each within its role's grants and its keys' usage: commands signs with the first key and seals and opens seeds
    // with the seed key; reads only reads the public key.
    const used = (name: LambdaName, from: number) => [...new Set(kmsUse(name).slice(from))].sort();
    // (GenerateMac with the token key: the creation quota's keyed hash of the address.)
    expect(used('commands', commandsBefore)).toEqual([`Decrypt ${SEED_KEY}`, `Encrypt ${SEED_KEY}`, `GenerateMac ${TOKEN_KEY}`, `GetPublicKey ${SIGNING_KEY}`, `Sign ${SIGNING_KEY}`]);
    expect(used('reads', readsBefore)).toEqual([`GetPublicKey ${SIGNING_KEY}`]);
    // Structured logs: the request records are there, with their route and outcome; the tokens are not.
    const logs = created.logs + commands.logs + reads.logs;
    expect(logs).toContain('"commandType":"Roll"');
    expect(logs).toContain('"route":"POST /games/{id}/commands"');
    expect(logs).toMatch(/"outcome":"(ok|retry)"/);
    for (const secret of [game.tokens.organizer, game.tokens.players.player1, game.tokens.players.player2]) expect(logs).not.toContain(secret);
  });

  it('trace every AWS call of a command as an X-Ray subsegment, with no token, seed or commit in the trace', async () => {
    // Lambda's tracing environment: a trace id for the invocation and the X-Ray daemon's UDP address (here a loopback socket).
    const daemon = createSocket('udp4');
    const documents: string[] = [];
    daemon.on('message', (message) => documents.push(message.toString('utf8')));
    await new Promise<void>((resolve) => daemon.bind(0, '127.0.0.1', () => resolve()));
    const tracing = {
      AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
      LAMBDA_TASK_ROOT: '/var/task',
      _X_AMZN_TRACE_ID: 'Root=1-6741f0a2-0123456789abcdef01234567;Parent=53995c3f42cd8ad8;Sampled=1',
      AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${daemon.address().port}`,
      AWS_XRAY_CONTEXT_MISSING: 'IGNORE_ERROR',
    };
    try {
      const created = await invoke('commands', [event('POST', '/games', '/games', { body: { ruleset: 'dice', title: 'traced' } })], tracing);
      const game = created.replies[0].json;
      const rolled = await invoke('commands', [
        event('POST', `/games/${game.gameId}/commands`, '/games/{id}/commands', { token: game.tokens.players.player1, params: { id: game.gameId }, body: { commandId: 't1', type: 'Roll', payload: { dice: '2d6', purpose: 'traced roll' } } }),
      ], tracing);
      expect(rolled.replies[0].statusCode).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const subsegments = documents.map((d) => JSON.parse(d.slice(d.indexOf('\n') + 1)) as { name: string; namespace?: string; aws?: { operation?: string }; trace_id: string });
      const calls = subsegments.filter((d) => d.namespace === 'aws').map((d) => `${d.name} ${d.aws?.operation}`);
      expect(calls).toEqual(expect.arrayContaining(['DynamoDB TransactWriteItems', 'KMS Encrypt', 'KMS Sign', 'DynamoDB Query', 'DynamoDB PutItem', 'KMS Decrypt']));
      expect(new Set(subsegments.map((d) => d.trace_id))).toEqual(new Set(['1-6741f0a2-0123456789abcdef01234567']));
      const trace = documents.join('\n');
      for (const secret of [game.tokens.organizer, game.tokens.players.player1, game.tokens.players.player2, rolled.replies[0].json.commit.hash]) expect(trace).not.toContain(secret);
    } finally {
      daemon.close();
    }
  });

  it('create a game once for an Idempotency-Key: a retry in another process gets the same game and tokens, derived with the token key', async () => {
    const body = { ruleset: 'dice', title: 'retried' };
    const headers = { 'idempotency-key': `bundle-test-${Date.now()}` };
    const macsBefore = kms.calls('GenerateMac');
    const first = await invoke('commands', [event('POST', '/games', '/games', { body, headers })]);
    const retry = await invoke('commands', [event('POST', '/games', '/games', { body, headers })]);
    expect(first.replies[0].statusCode).toBe(201);
    expect(retry.replies[0].json).toMatchObject({ gameId: first.replies[0].json.gameId, tokens: first.replies[0].json.tokens });
    expect(kms.calls('GenerateMac') - macsBefore).toBeGreaterThanOrEqual(2);
    expect(kmsUse('commands').filter((c) => c.startsWith('GenerateMac'))).toEqual(expect.arrayContaining([`GenerateMac ${TOKEN_KEY}`]));
    expect(kmsUse('commands').filter((c) => c.startsWith('GenerateMac') && c !== `GenerateMac ${TOKEN_KEY}`)).toEqual([]);
  });

  it('rotate the signing key as docs/deploy.md says (npm run rotate-key:aws with the outputs TableName and SigningKeyArns): new processes sign with the new key and publish the log; the old pin still verifies', async () => {
    const before = (await invoke('reads', [event('GET', '/keys', '/keys')])).replies[0].json;
    const created = (await invoke('commands', [event('POST', '/games', '/games', { body: { ruleset: 'dice' } })])).replies[0].json;
    const table = standIn(deployed.Outputs.TableName.Value);
    const [first, next, ...more] = standIn(deployed.Outputs.SigningKeyArns.Value).split(',');
    expect([first, next, more]).toEqual([SIGNING_KEY, NEXT_SIGNING_KEY, []]);
    // The operator's KMS permissions as docs/deploy.md lists them: GetPublicKey on both keys, Sign on the current one.
    const operator = await startKmsAsGranted(kms.endpoint, KEYS, [
      { effect: 'Allow', actions: ['kms:GetPublicKey'], resources: [first, next] },
      { effect: 'Allow', actions: ['kms:Sign'], resources: [first] },
    ]);
    const aws = { AWS_REGION: REGION, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local', AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint, AWS_ENDPOINT_URL_KMS: operator.endpoint };
    // The rotation records the key that signs now in the CDK context (signingKeyGuard.ts): a file of this test's, not the project's.
    const context = join(mkdtempSync(join(tmpdir(), 'arbiter-rotation-context-')), 'cdk.context.json');
    const rotated = await run('npm', ['run', '--silent', 'rotate-key:aws', '--', '--table', table, '--keys', `${first},${next}`, '--to', next, '--context', context], aws);
    await operator.close();
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(operator.refused()).toEqual([]);
    const printed = rotated.stdout.trim().split('\n');
    expect(printed[0]).toBe('Signing key rotated (key log statement 1, signed by the old key).');
    expect(printed[1]).toBe(`  retired: ${before.keys[0].fingerprint}`);
    expect(printed[2]).toMatch(/^  current: ed25519:\S+$/);
    // Run again, it refuses: the log never forks.
    expect(JSON.parse(readFileSync(context, 'utf8'))).toEqual({ 'arbiter:currentSigningKey': 2 });
    const again = await run('npm', ['run', '--silent', 'rotate-key:aws', '--', '--table', table, '--keys', `${first},${next}`, '--to', next, '--context', context], { ...aws, AWS_ENDPOINT_URL_KMS: kms.endpoint });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('is already the current key');

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
    expect(keys.json.keys[0].fingerprint).toBe(printed[2].replace('  current: ', ''));
    // The new key signs, under the grants of the stack deployed with -c signingKeys=2.
    expect(kmsUse('commands')).toContain(`Sign ${NEXT_SIGNING_KEY}`);
    expect(kmsFor.commands.refused()).toEqual([]);
    expect(kmsFor.reads.refused()).toEqual([]);
  });

  it('serve the standalone verifier at GET /verifier.mjs from a function that holds nothing else', async () => {
    const served = await invoke('verifier', [event('GET', '/verifier.mjs', '/verifier.mjs')]);
    const [reply] = served.replies;
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(reply.body).toBe(await buildVerifierBundle());
    expect(kmsUse('verifier')).toEqual([]);
  });

  it('serve the web app at GET / and /assets/{file} from a function that holds nothing else', async () => {
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
    // The stack tells the page where the push socket is (ARBITER_PUSH_URL, the PushUrl output): named in a meta element, allowed by the policy.
    expect(environmentOf('web').ARBITER_PUSH_URL).toBe(PUSH_URL);
    const meta = `<meta name="arbiter-push" content="${PUSH_URL}">`;
    // And where stored exports' links point (ARBITER_EXPORT_ORIGIN, the exports bucket), for the verify page.
    expect(environmentOf('web').ARBITER_EXPORT_ORIGIN).toBe(`https://arbiter-exports.s3.${REGION}.${URL_SUFFIX}`);
    expect(page.headers['content-security-policy']).toBe(
      WEB_CONTENT_SECURITY_POLICY.replace("connect-src 'self'", `connect-src 'self' wss://${new URL(PUSH_URL).host} https://arbiter-exports.s3.${REGION}.${URL_SUFFIX}`),
    );
    expect(page.body).toContain(meta);
    expect(page.body.replace(`\n${meta}`, '')).toBe(built.get('/')!.body);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.body).toBe(built.get('/assets/app.js')!.body);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    for (const reply of [page, js, css]) expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(missing.json.error.code).toBe('not_found');
    expect(kmsUse('web')).toEqual([]);
  });

  it('serve the API reference at GET /docs, its script gzipped when the client accepts it, from a function that holds nothing else', async () => {
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
    expect(kmsUse('docs')).toEqual([]);
  });

  it('serves the catalogue without the table or a key', async () => {
    const catalogue = await invoke('catalogue', [
      event('GET', '/health', '/health'),
      event('GET', '/rulesets', '/rulesets'),
      event('POST', '/rulesets/dice/evaluate', '/rulesets/{ruleset}/evaluate', { params: { ruleset: 'dice' }, body: { procedure: 'roll', input: { dice: '2d6' }, dice: [3, 4] } }),
      event('GET', '/openapi.json', '/openapi.json'),
      event('GET', '/keys', '/keys'),
    ]);
    expect(catalogue.replies.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 404]);
    expect(catalogue.replies[2].json.result.total).toBe(7);
    expect(kmsUse('catalogue')).toEqual([]);
  });
});

describe('beacon games on Lambda (infra/beaconReveals.ts)', () => {
  /** Only the BLS check of drand's signatures holds this domain tag (domain/beacon/blsSignature.ts). */
  const BLS_DST = 'BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_';

  it('accept a roll in the commands bundle and reveal it in the reveal bundle from the stream record of its entry, with the environment and KMS grants the stack gives them', async () => {
    const test = testBeaconChain({ name: 'lambda-test', period: 1 });
    const relay = await startLoopbackRelay({ chains: [test] });
    const dir = mkdtempSync(join(tmpdir(), 'arbiter-reveal-bundle-'));
    const revealBundle = join(dir, 'revealBeacons', BUNDLE.outFile);
    await build(esbuildOptions(BEACON_ENTRIES.revealBeacons, revealBundle));
    const [, revealFunction] = Object.entries(deployed.Resources).find(([id, r]) => r.Type === 'AWS::Lambda::Function' && named(id) === 'BeaconRevealsRevealFunction')!;
    const revealKms = await startKmsAsGranted(kms.endpoint, KEYS, kmsGrantsOfRole(revealFunction.Properties.Role['Fn::GetAtt'][0]));
    try {
      // The stack offers quicknet alone; this test adds a chain of its own whose rounds the loopback relay signs.
      const chains = join(dir, 'chains.json');
      writeFileSync(chains, beaconChainsFileText([test.chain]));
      const beaconChains = { ARBITER_BEACON_CHAINS: chains };
      const created = await invoke('commands', [event('POST', '/games', '/games', { body: { ruleset: 'dice', randomness: { beacon: 'lambda-test' } } })], beaconChains);
      expect(created.replies[0].statusCode).toBe(201);
      const game = created.replies[0].json;
      const roll = { commandId: 'b1', type: 'Roll', payload: { dice: '2d6', purpose: 'beacon roll on Lambda' } };
      const rolled = await invoke('commands', [event('POST', `/games/${game.gameId}/commands`, '/games/{id}/commands', { token: game.tokens.players.player1, params: { id: game.gameId }, body: roll })], beaconChains);
      expect(rolled.replies[0].statusCode).toBe(202);
      const { seq } = rolled.replies[0].json.commit;
      const { round } = rolled.replies[0].json.beacon;

      const environment = {
        ...Object.fromEntries(Object.entries(revealFunction.Properties.Environment.Variables as Record<string, unknown>).map(([k, v]) => [k, standIn(v)])),
        ...beaconChains,
        ARBITER_DRAND_RELAYS: relay.url,
        AWS_REGION: REGION,
        AWS_ACCESS_KEY_ID: 'local',
        AWS_SECRET_ACCESS_KEY: 'local',
        AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
        AWS_ENDPOINT_URL_KMS: revealKms.endpoint,
        POWERTOOLS_DEV: 'false',
        LAMBDA_TIMEOUT_MS: String(REVEAL_TIMEOUT.toMilliseconds()),
      };
      const inserted = { eventName: 'INSERT', eventSource: 'aws:dynamodb', dynamodb: { Keys: { pk: { S: PENDING_REVEALS_KEY }, sk: { N: String(pendingRevealSk(game.gameId, seq)) } }, SequenceNumber: '1', StreamViewType: 'KEYS_ONLY' } };
      const { results } = await invokeBundle(revealBundle, [{ Records: [inserted] }, { source: 'aws.events', 'detail-type': 'Scheduled Event' }], environment);
      expect(results).toEqual([{ followed: 1 }, { due: 0, revealed: 0 }]);
      expect(relay.requests.some((path) => path.endsWith(`/${test.chain.chainHash}/public/${round}`))).toBe(true);

      const reads = await invoke('reads', [event('GET', `/games/${game.gameId}/events`, '/games/{id}/events', { token: game.tokens.players.player2, params: { id: game.gameId }, query: { after: String(seq) } })]);
      const [reveal] = reads.replies[0].json.commits;
      expect(reveal).toMatchObject({ seq: seq + 1, actor: 'server', commandId: `beacon/${seq}`, command: { type: 'RevealBeacon', payload: { pending: seq, round, signature: test.sign(round) } } });
      expect(reveal.dice).toHaveLength(2);
      // On the commands side: signs with the key commands signs with (the current one: a rotation above may have moved it)
      // and opens the game's seed; seals none, mints no token, and is refused nothing.
      expect(reveal.kid).toBe(rolled.replies[0].json.commit.kid);
      const calls = revealKms.calls;
      expect(calls.filter((c) => c.refused)).toEqual([]);
      expect([...new Set(calls.map((c) => c.operation))].sort()).toEqual(['Decrypt', 'GetPublicKey', 'Sign']);
      expect([...new Set(calls.filter((c) => c.operation === 'Decrypt').map((c) => c.keyId))]).toEqual([SEED_KEY]);
      for (const call of calls.filter((c) => c.operation !== 'Decrypt')) expect(KEYS.signing).toContain(call.keyId);
    } finally {
      await revealKms.close();
      await relay.close();
    }
  });

  it('carry the BLS code in the reveal function, loaded by its first reveal (not at a cold start), and not in commands (which accepts beacon rolls without it) nor in reads', async () => {
    const reveal = (await allBundles()).revealBeacons;
    const holdsBls = (chunks: readonly { file: string }[]) => chunks.some(({ file }) => readFileSync(file, 'utf8').includes(BLS_DST));
    expect(holdsBls(reveal.onDemand)).toBe(true);
    expect(holdsBls(reveal.coldStart)).toBe(false);
    for (const name of ['commands', 'reads'] as const) for (const { file } of everyChunk(bundles[name])) expect(readFileSync(file, 'utf8'), name).not.toContain(BLS_DST);
  });
});
