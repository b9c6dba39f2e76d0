import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { build } from 'esbuild';
import { generateKeyPairSync } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingName } from '../../functions/config/settingNames';
import { BUNDLE, esbuildOptions, LAMBDA_ENTRIES } from '../../infra/bundling';
import { EXPORT_JOB_ENTRIES } from '../../infra/exportJob';
import { startFakeKms } from '../support/fakeKms';
import { startLoopbackDynamo } from '../support/loopbackDynamo';
import { startLoopbackS3 } from '../support/loopbackS3';
import { invokeBundle, run } from '../support/runCli';
import { serverKey, storeTournament } from '../support/storedTournament';

/**
 * A tournament weekend's export (issue 35, B2) against the built bundles: the commands
 * function answers GET /tournaments/{id}/export with 202 and starts the export function
 * (Lambda's asynchronous Invoke, on a loopback stand-in), the export function writes the file
 * to S3 (s3rver on loopback) in parts and signs its tournament head (a fake KMS), and the
 * status then answers 303 to a link whose file the verifier accepts whole. The size defaults
 * to 200 games of 300 commits (EXPORT_BUNDLE_GAMES, EXPORT_BUNDLE_COMMITS change it).
 */
const GAMES = Number(process.env.EXPORT_BUNDLE_GAMES ?? 200);
const COMMITS = Number(process.env.EXPORT_BUNDLE_COMMITS ?? 300);
const REGION = 'eu-west-1';
const SIGNING_KEY = `arn:aws:kms:${REGION}:000000000000:key/signing-1`;
const BUCKET = 'arbiter-exports';
const JOB_FUNCTION = 'Arbiter-ExportJobFunction';
/** The export function's memory on AWS (infra/exportJob.ts). */
const JOB_MEMORY_MB = 1024;
/** The export function's heap here: a tenth of its memory on AWS. */
const JOB_HEAP_MB = 96;

const signingKey = generateKeyPairSync('ed25519').privateKey;
const key = serverKey(signingKey);
let bundles: { commands: string; exportJob: string };
let dynamo: Awaited<ReturnType<typeof startLoopbackDynamo>>;
let kms: Awaited<ReturnType<typeof startFakeKms>>;
let s3: Awaited<ReturnType<typeof startLoopbackS3>>;
/** s3rver behind a proxy that counts each request by kind (multipart or not). */
let s3Proxy: { endpoint: string; requests: string[]; close: () => Promise<void> };
/** Lambda's Invoke API on loopback: records each asynchronous invocation and answers 202, as Lambda does once it is queued. */
let lambda: { endpoint: string; invocations: { path: string; type: string | undefined; signed: boolean; event: unknown }[]; close: () => Promise<void> };
let tournament: Awaited<ReturnType<typeof storeTournament>>;
/** The bundles and the downloaded file (tens of MB): removed after. */
const scratch = mkdtempSync(join(tmpdir(), 'arbiter-i35-export-'));

function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; endpoint: string }> {
  const server = createServer(handler);
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}
const closing = (server: Server) => () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));

beforeAll(async () => {
  bundles = { commands: join(scratch, 'commands', BUNDLE.outFile), exportJob: join(scratch, 'exportJob', BUNDLE.outFile) };
  await build(esbuildOptions(LAMBDA_ENTRIES.commands, bundles.commands));
  await build(esbuildOptions(EXPORT_JOB_ENTRIES.exportJob, bundles.exportJob));
  dynamo = await startLoopbackDynamo('export-bundle-games');
  kms = await startFakeKms({ signing: [SIGNING_KEY], symmetric: [], privateKeys: new Map([[SIGNING_KEY, signingKey]]) });
  s3 = await startLoopbackS3([BUCKET]);
  const requests: string[] = [];
  const proxy = await listen((req, res) => {
    const url = new URL(req.url!, 'http://proxy');
    requests.push(`${req.method} ${[...url.searchParams.keys()].filter((k) => !k.startsWith('X-Amz-')).join('&')}`);
    const upstream = request(`${s3.endpoint}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode!, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  s3Proxy = { endpoint: proxy.endpoint, requests, close: closing(proxy.server) };
  const invocations: typeof lambda.invocations = [];
  const invoke = await listen((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      invocations.push({ path: req.url!, type: req.headers['x-amz-invocation-type'] as string | undefined, signed: String(req.headers.authorization ?? '').startsWith('AWS4-HMAC-SHA256 '), event: JSON.parse(body) });
      res.writeHead(202, { 'content-type': 'application/json' }).end();
    });
  });
  lambda = { endpoint: invoke.endpoint, invocations, close: closing(invoke.server) };
  const client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  tournament = await storeTournament(client, dynamo.tableName, key, { games: GAMES, commits: COMMITS });
  client.destroy();
}, 600_000);
afterAll(async () => {
  await lambda?.close();
  await s3Proxy?.close();
  await s3?.close();
  await kms?.close();
  await dynamo?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The environment the stack gives each function (infra/arbiterStack.ts, infra/signing.ts, infra/exportStorage.ts, infra/exportJob.ts), on loopback. */
function environment(name: 'commands' | 'exportJob'): Record<string, string> {
  return {
    [settingName('tableName')]: dynamo.tableName,
    [settingName('signingKeyId')]: SIGNING_KEY,
    [settingName('signs')]: 'true',
    // The bucket's endpoint on AWS is its own host; s3rver takes the bucket as the first path segment, so the stand-in puts it in the prefix.
    [settingName('exportEndpoint')]: s3Proxy.endpoint,
    [settingName('exportRegion')]: REGION,
    [settingName('exportPrefix')]: `${BUCKET}/exports/`,
    ...(name === 'commands' ? { [settingName('exportJobFunction')]: JOB_FUNCTION, AWS_ENDPOINT_URL_LAMBDA: lambda.endpoint } : {}),
    AWS_REGION: REGION,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
    AWS_ENDPOINT_URL_KMS: kms.endpoint,
    POWERTOOLS_DEV: 'false',
  };
}

const get = (path: string, template: string, params: Record<string, string>) => ({
  version: '2.0',
  routeKey: `GET ${template}`,
  rawPath: path,
  rawQueryString: '',
  headers: { authorization: `Bearer ${tournament.token}` },
  pathParameters: params,
  requestContext: { http: { method: 'GET', path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' }, requestId: 'r', routeKey: `GET ${template}`, stage: '$default', timeEpoch: Date.now() },
  isBase64Encoded: false,
});
type Reply = { statusCode: number; headers: Record<string, string>; body: string };

describe(`a tournament export of ${GAMES} games × ${COMMITS} commits on the built bundles`, () => {
  it('is started by commands (202, the export function invoked asynchronously), written by the export function in parts with bounded memory, then linked (303) and verified whole', async () => {
    const exportPath = `/tournaments/${tournament.tournamentId}/export`;
    const started = (await invokeBundle(bundles.commands, [get(exportPath, '/tournaments/{id}/export', { id: tournament.tournamentId })], environment('commands'))).results[0] as Reply;
    expect(started.statusCode, started.body).toBe(202);
    const running = JSON.parse(started.body);
    expect(running).toMatchObject({ status: 'running', exportId: expect.stringMatching(/^[0-9a-f]{40}$/), retryAfter: 1 });
    expect([started.headers.location, started.headers['retry-after']]).toEqual([running.statusUrl, '1']);
    expect(lambda.invocations).toEqual([
      { path: `/2015-03-31/functions/${JOB_FUNCTION}/invocations`, type: 'Event', signed: true, event: { tournamentId: tournament.tournamentId, exportId: running.exportId } },
    ]);
    // Nothing signed nor read past the heads by the request: the tournament head is the job's.
    expect(kms.calls('Sign')).toBe(0);

    const jobStarted = Date.now();
    // Its JavaScript heap capped far below the file's games parsed (the old export held them all, then the whole text): it finishes only if it streams.
    const job = await invokeBundle(bundles.exportJob, [lambda.invocations[0].event], { ...environment('exportJob'), LAMBDA_TIMEOUT_MS: '900000', NODE_OPTIONS: `--max-old-space-size=${JOB_HEAP_MB}` }, 600_000);
    const jobSeconds = (Date.now() - jobStarted) / 1000;
    const outcome = job.results[0] as { bytes?: number; failed?: string };
    expect(outcome.failed, job.logs).toBeUndefined();
    const bytes = outcome.bytes!;
    const parts = s3Proxy.requests.filter((r) => r === 'PUT partNumber&uploadId').length;
    expect(s3Proxy.requests.filter((r) => r === 'POST uploads')).toHaveLength(1);
    expect(parts).toBe(Math.ceil(bytes / (8 * 1024 * 1024)));
    expect(s3Proxy.requests.filter((r) => r === 'POST uploadId')).toHaveLength(1);
    // One tournament head signed, nothing else.
    expect(kms.calls('Sign')).toBe(1);
    const peakMb = job.maxRssKb / 1024;

    const status = (await invokeBundle(bundles.commands, [get(running.statusUrl, '/tournaments/{id}/exports/{exportId}', { id: tournament.tournamentId, exportId: running.exportId })], environment('commands'))).results[0] as Reply;
    expect(status.statusCode, status.body).toBe(303);
    const ready = JSON.parse(status.body);
    expect(ready).toMatchObject({ status: 'ready', exportId: running.exportId, bytes, url: status.headers.location });
    expect(new URL(ready.url).searchParams.get('X-Amz-Expires')).toBe('300');
    // Asked again, the same state is the same export: no second job.
    const again = (await invokeBundle(bundles.commands, [get(exportPath, '/tournaments/{id}/export', { id: tournament.tournamentId })], environment('commands'))).results[0] as Reply;
    expect([again.statusCode, JSON.parse(again.body).exportId, lambda.invocations.length]).toEqual([303, running.exportId, 1]);

    // The file from its link, streamed to disk, checked whole by the verifier (its tournament check).
    const file = join(scratch, 'round.ndjson');
    const download = await fetch(ready.url);
    expect(download.status).toBe(200);
    await pipeline(Readable.fromWeb(download.body as never), createWriteStream(file));
    expect(statSync(file).size).toBe(bytes);
    const verified = await run('node', ['bin/arbiter.mjs', 'verify', file, '--trust', key.fingerprint, '--max-bytes', String(bytes + 1024)], {}, undefined, 600_000);
    const lines = verified.stdout.trimEnd().split('\n');
    expect([verified.code, lines.at(-2), lines.at(-1)], verified.stdout.slice(-2000) + verified.stderr).toEqual([0, `${GAMES} games: ${GAMES} OK`, 'OK: every game verified']);

    console.log(
      `tournament export, ${GAMES} games × ${COMMITS} commits: ${(bytes / 1024 / 1024).toFixed(1)} MB in ${parts} parts, ` +
        `export function ${jobSeconds.toFixed(1)} s (process start and bundle load included), peak RSS ${peakMb.toFixed(0)} MB`,
    );
    // Bounded: the job holds one part (8 MiB) and a few games, never the file nor its games at once; a quarter of the function's memory.
    expect(peakMb).toBeLessThan(JOB_MEMORY_MB / 4);
  }, 900_000);
});
