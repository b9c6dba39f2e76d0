import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { Server as NetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startEmbeddedS3 } from '../../functions/local/embeddedS3';
import { startLocalService, type LocalOptions, type LocalService } from '../../functions/local/localService';
import { useNpmStart } from '../support/npmStart';
import { figure } from './figures';

const ROOT = new URL('../..', import.meta.url).pathname;
const MB = 1024 * 1024;
const dir = mkdtempSync(join(tmpdir(), 'arbiter-edges-'));
/** Far below the 2.8 GB (a line of "[") and 3.5 GB (of "{},") the verifier took before its input was bounded. */
const PEAK_MEMORY_BOUND = 1024 * MB;

interface Verified {
  code: number;
  stderr: string;
  ms: number;
  peakBytes: number;
}

/** `arbiter verify` as a process, with its wall time and its peak memory. */
function verify(args: string[]): Promise<Verified> {
  const peakFile = join(dir, `peak-${Math.random().toString(36).slice(2)}`);
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      'node',
      ['--import', './test/reliability/peakMemory.mjs', 'bin/arbiter.mjs', 'verify', ...args],
      { cwd: ROOT, env: { ...process.env, ARBITER_PEAK_MEMORY_FILE: peakFile, ARBITER_TRUST_FILE: join(dir, 'trusted.json') }, timeout: 120_000, maxBuffer: 16 * MB },
      (error, _stdout, stderr) => {
        const ms = Math.round(performance.now() - started);
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        let peakBytes = Infinity;
        try {
          peakBytes = Number(readFileSync(peakFile, 'utf8'));
        } catch {
          // killed, or out of memory: no figure written
        }
        resolve({ code, stderr, ms, peakBytes });
      },
    );
  });
}

function repeated(unit: string, bytes: number): string {
  return unit.repeat(Math.floor(bytes / unit.length));
}

/** A gzip body that unpacks to `bytes` of `unit`, made a megabyte at a time. */
async function gzipOf(unit: string, bytes: number): Promise<Buffer> {
  const gzip = createGzip();
  const parts: Buffer[] = [];
  gzip.on('data', (part: Buffer) => parts.push(part));
  const megabyte = repeated(unit, MB);
  for (let written = 0; written < bytes; written += MB) {
    if (!gzip.write(megabyte)) await new Promise((resolve) => gzip.once('drain', resolve));
  }
  await new Promise((resolve) => gzip.end(resolve));
  return Buffer.concat(parts);
}

async function gzipServer(body: Buffer) {
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(body));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / MB)} MB`;
}

describe('the verifier refuses absurd input fast, with bounded memory', () => {
  it('a 50 MB file of "[": exit 2 naming the nesting, in seconds, not gigabytes', async () => {
    const file = join(dir, 'brackets.json');
    writeFileSync(file, repeated('[', 50 * MB));
    const result = await verify([file]);
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(`arbiter verify: "${file}" is not valid JSON: arrays and objects nested deeper than 256 levels at line 1, column 257`);
    expect(result.ms).toBeLessThan(10_000);
    expect(result.peakBytes).toBeLessThan(PEAK_MEMORY_BOUND);
    figure('Verifier input', 'a 50 MB file of "[": exit / wall time / peak memory', `${result.code} / ${result.ms} ms / ${megabytes(result.peakBytes)}`);
  });

  it('a 50 MB file of "{}," in one array: exit 2 at two million objects', async () => {
    const file = join(dir, 'objects.json');
    writeFileSync(file, `[${repeated('{},', 50 * MB - 3)}{}]`);
    const result = await verify([file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('is not valid JSON: more than 2000000 arrays and objects');
    expect(result.ms).toBeLessThan(20_000);
    expect(result.peakBytes).toBeLessThan(PEAK_MEMORY_BOUND);
    figure('Verifier input', 'a 50 MB file of "{}," in an array: exit / wall time / peak memory', `${result.code} / ${result.ms} ms / ${megabytes(result.peakBytes)}`);
  });

  it('a 48 KB gzipped answer of 50 MB of "[" from a URL: exit 2, bounded', async () => {
    const body = await gzipOf('[', 50 * MB);
    const server = await gzipServer(body);
    try {
      const result = await verify([`${server.url}/bomb.json`]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('is not valid JSON: arrays and objects nested deeper than 256 levels');
      expect(result.ms).toBeLessThan(10_000);
      expect(result.peakBytes).toBeLessThan(PEAK_MEMORY_BOUND);
      figure('Verifier input', `a ${Math.round(body.length / 1024)} KB gzip body of 50 MB of "[": exit / wall time / peak memory`, `${result.code} / ${result.ms} ms / ${megabytes(result.peakBytes)}`);
    } finally {
      await server.close();
    }
  });

  it('a gzip body that unpacks to 256 MB: cut off at 50 MB unpacked, or at the --max-bytes given', async () => {
    const body = await gzipOf(' ', 256 * MB);
    const server = await gzipServer(body);
    try {
      const result = await verify([`${server.url}/bomb.json`]);
      expect(result.code).toBe(2);
      expect(result.stderr.trim()).toBe(`arbiter verify: ${server.url}/bomb.json answers more than 50 MB (counted unpacked), which is refused`);
      expect(result.peakBytes).toBeLessThan(PEAK_MEMORY_BOUND);
      const smaller = await verify([`${server.url}/bomb.json`, '--max-bytes', '1M']);
      expect(smaller.stderr.trim()).toBe(`arbiter verify: ${server.url}/bomb.json answers more than 1 MB (counted unpacked), which is refused`);
      figure('Verifier input', `a ${Math.round(body.length / 1024)} KB gzip body of 256 MB: exit / wall time / peak memory`, `${result.code} / ${result.ms} ms / ${megabytes(result.peakBytes)}`);
    } finally {
      await server.close();
    }
  });
});


/** A local server whose every game export is large enough to be answered with a link. */
async function linkingServer(options: LocalOptions = {}): Promise<{ local: LocalService; gameId: string; token: string }> {
  const local = await startLocalService({ exportInlineMaxBytes: 1, ...options });
  const game = await local.service.createGame({ ruleset: 'dice', title: 'linked export' });
  const token = game.tokens.players.player1;
  await local.service.submit(game.gameId, token, { commandId: 'r1', type: 'Roll', payload: { dice: '2d6', purpose: 'first fire' } });
  return { local, gameId: game.gameId, token };
}

async function exportLink(local: LocalService, gameId: string, token: string): Promise<string> {
  const answer = await fetch(`${local.url}/games/${gameId}/export`, { headers: { authorization: `Bearer ${token}` }, redirect: 'manual' });
  expect(answer.status).toBe(303);
  return answer.headers.get('location')!;
}

/** GET a link's path on the server's own port, with the Host a proxy in front might pass on. */
function getThrough(local: LocalService, link: string, host: string): Promise<{ status: number; body: string }> {
  const target = new URL(link);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: local.port, path: `${target.pathname}${target.search}`, headers: { host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

const started: LocalService[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const local of started.splice(0)) await local.close();
});

describe('export links name an address people can reach', () => {
  it('a server listening on every interface (HOST=0.0.0.0) never hands out a link to 0.0.0.0', async () => {
    // Tests listen on 127.0.0.1 only: the server is told its address is 0.0.0.0, as a HOST=0.0.0.0 bind reports it.
    const address = NetServer.prototype.address;
    vi.spyOn(NetServer.prototype, 'address').mockImplementation(function (this: NetServer) {
      const real = address.call(this) as AddressInfo;
      return { ...real, address: '0.0.0.0' };
    });
    const { local, gameId, token } = await linkingServer({ host: '127.0.0.1' });
    vi.restoreAllMocks();
    started.push(local);
    const link = await exportLink(local, gameId, token);
    expect(link).not.toContain('0.0.0.0');
    expect(link.startsWith(`http://127.0.0.1:${local.port}/exports/games/${gameId}/`)).toBe(true);
    expect(local.url).toBe(`http://127.0.0.1:${local.port}`);
    expect((await fetch(link)).status).toBe(200);
    figure('Export links', 'HOST=0.0.0.0 without ARBITER_PUBLIC_URL: link origin', new URL(link).origin.replace(String(local.port), 'PORT'));
  });

  it('ARBITER_PUBLIC_URL is the origin of the links, and a link works whatever Host the proxy passes on', async () => {
    const { local, gameId, token } = await linkingServer({ publicUrl: 'https://arbiter.example.org' });
    started.push(local);
    const link = await exportLink(local, gameId, token);
    expect(link.startsWith(`https://arbiter.example.org/exports/games/${gameId}/`)).toBe(true);
    for (const host of ['arbiter.example.org', `127.0.0.1:${local.port}`]) {
      const answer = await getThrough(local, link, host);
      expect(answer.status, host).toBe(200);
      expect(JSON.parse(answer.body).gameId).toBe(gameId);
    }
    figure('Export links', 'ARBITER_PUBLIC_URL=https://arbiter.example.org: link origin / read through a proxy', `${new URL(link).origin} / 200`);
  });

  const npmStart = useNpmStart();

  it('npm start refuses to start on an ARBITER_PUBLIC_URL that is not an http(s) origin, and names it in its banner when it is', async () => {
    const refused: string[] = [];
    for (const value of ['ftp://arbiter.example.org', 'https://arbiter.example.org/games', 'http://0.0.0.0:8787', 'arbiter.example.org']) {
      const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', 'functions/local/main.ts'],
          { cwd: ROOT, env: { ...process.env, PORT: '0', ARBITER_DATA_DIR: mkdtempSync(join(dir, 'data-')), ARBITER_PUBLIC_URL: value }, timeout: 30_000 },
          (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, output: stdout + stderr }),
        );
      });
      expect(result.code, value).toBe(1);
      expect(result.output, value).toContain('Arbiter could not start: ARBITER_PUBLIC_URL');
      expect(result.output, value).not.toContain('listening on');
      refused.push(value);
    }
    const server = await npmStart.start(mkdtempSync(join(dir, 'data-')), { ARBITER_PUBLIC_URL: 'https://arbiter.example.org/' });
    for (let round = 0; round < 100 && !server.output().includes('try: curl'); round++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.output()).toContain('  public URL: https://arbiter.example.org');
    expect(server.output()).toContain('curl -sO https://arbiter.example.org/verifier.mjs');
    figure('Export links', 'ARBITER_PUBLIC_URL values refused at start (exit 1)', refused.length);
  });
});

describe('the local server removes expired export objects while it runs', () => {
  const DAY = 86_400_000;

  it('in memory: a link works at 6 days, the object is gone soon after 7, and asking again writes it again', async () => {
    let offset = 0;
    const now = () => new Date(Date.now() + offset).toISOString();
    const { local, gameId, token } = await linkingServer({ now, exportPruneEveryMs: 50 });
    started.push(local);
    const link = await exportLink(local, gameId, token);
    expect((await fetch(link)).status).toBe(200);
    offset = 6 * DAY;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await fetch(link)).status).toBe(200);
    offset = 7 * DAY + 60_000;
    const waited = performance.now();
    let status = 200;
    for (let round = 0; round < 100 && status === 200; round++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await fetch(link)).status;
    }
    const removedAfter = Math.round(performance.now() - waited);
    expect(status).toBe(404);
    const again = await exportLink(local, gameId, token);
    expect((await fetch(again)).status).toBe(200);
    figure('Export retention', 'in memory, swept every 50 ms: kept at 6 days / gone after 7 days within', `200 / ${removedAfter} ms`);
  });

  it(`in a data directory: s3rver's files of an expired export are removed by the running sweep`, async () => {
    const directory = mkdtempSync(join(dir, 'exports-'));
    let offset = 0;
    const embedded = await startEmbeddedS3({ directory, publicUrl: () => 'http://127.0.0.1:1', now: () => Date.now() + offset, pruneEveryMs: 50 });
    try {
      const key = 'games/g-expiring/3-0123456789abcdef.json';
      await embedded.store.put(key, Buffer.from('{}'), 'application/json; charset=utf-8');
      const file = join(directory, 'exports', 'games', 'g-expiring', '3-0123456789abcdef.json._S3rver_object');
      expect(existsSync(file)).toBe(true);
      offset = 8 * DAY;
      for (let round = 0; round < 100 && existsSync(file); round++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(existsSync(file)).toBe(false);
    } finally {
      await embedded.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
