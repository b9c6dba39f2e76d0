import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip } from 'node:zlib';
import { describe, expect, it } from 'vitest';
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

  it('a gzip body that unpacks to 1 GB: cut off at 50 MB unpacked, or at the --max-bytes given', async () => {
    const body = await gzipOf(' ', 1024 * MB);
    const server = await gzipServer(body);
    try {
      const result = await verify([`${server.url}/bomb.json`]);
      expect(result.code).toBe(2);
      expect(result.stderr.trim()).toBe(`arbiter verify: ${server.url}/bomb.json answers more than 50 MB (counted unpacked), which is refused`);
      expect(result.peakBytes).toBeLessThan(PEAK_MEMORY_BOUND);
      const smaller = await verify([`${server.url}/bomb.json`, '--max-bytes', '1M']);
      expect(smaller.stderr.trim()).toBe(`arbiter verify: ${server.url}/bomb.json answers more than 1 MB (counted unpacked), which is refused`);
      figure('Verifier input', `a ${Math.round(body.length / 1024)} KB gzip body of 1 GB: exit / wall time / peak memory`, `${result.code} / ${result.ms} ms / ${megabytes(result.peakBytes)}`);
    } finally {
      await server.close();
    }
  });
});

