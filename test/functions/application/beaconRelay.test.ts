import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { beaconSignatureValid } from '../../../domain/beacon/blsSignature';
import { QUICKNET, roundTimeMs } from '../../../domain/beacon/chain';
import { beaconRandomness } from '../../../domain/beacon/randomness';
import { BeaconRelay, type BeaconRelayOptions } from '../../../functions/application/beaconRelay';
import { beaconChainsOf } from '../../../functions/config/beaconChains';
import { readSettings } from '../../../functions/config/settings';
import { BeaconNotPublished, BeaconUnavailable } from '../../../functions/ports/beaconSource';
import { QUICKNET_BEACONS } from '../../domain/beacon/vector';
import { startLoopbackRelay, type LoopbackRelay, type Misbehaviour } from '../../support/loopbackRelay';
import { testBeaconChain } from '../../support/testBeaconChain';

const test = testBeaconChain({ genesis: 1_700_000_000, period: 1 });
const { chain } = test;
// The relays' clock: round 100 of the test chain is out, 101 is not.
let nowMs = roundTimeMs(chain, 100);
const now = () => nowMs;

const relays: LoopbackRelay[] = [];
async function relay() {
  const started = await startLoopbackRelay({ chains: [test], now });
  relays.push(started);
  return started;
}
afterEach(async () => {
  nowMs = roundTimeMs(chain, 100);
  await Promise.all(relays.splice(0).map((r) => r.close()));
});

const client = (urls: string[], options: Partial<BeaconRelayOptions> = {}) => new BeaconRelay({ relays: urls, check: beaconSignatureValid, retryDelayMs: 0, ...options });
const path = (round: number, chainHash = chain.chainHash) => `/${chainHash}/public/${round}`;

describe('the loopback relay', () => {
  it('serves a round as drand does, with its randomness, once its time has come, and the chain info', async () => {
    const r = await relay();
    const answer = await fetch(`${r.url}${path(100)}`);
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { round: number; randomness: string; signature: string };
    expect(body).toEqual({ round: 100, randomness: beaconRandomness(test.sign(100)), signature: test.sign(100) });
    expect(beaconSignatureValid(chain, 100, body.signature)).toBe(true);

    const future = await fetch(`${r.url}${path(101)}`);
    expect(future.status).toBe(404);
    expect(future.headers.get('cache-control')).toBe('public, must-revalidate, max-age=1');

    const quicknet = (await (await fetch(`${r.url}${path(1000, QUICKNET.chainHash)}`)).json()) as { randomness: string };
    expect(quicknet.randomness).toBe('fe290beca10872ef2fb164d2aa4442de4566183ec51c56ff3cd603d930e54fdd');
    expect((await fetch(`${r.url}${path(1001, QUICKNET.chainHash)}`)).status).toBe(404);

    expect(await (await fetch(`${r.url}/${chain.chainHash}/info`)).json()).toEqual({
      public_key: chain.publicKey,
      period: 1,
      genesis_time: 1_700_000_000,
      hash: chain.chainHash,
      groupHash: chain.chainHash,
      schemeID: 'bls-unchained-g1-rfc9380',
      metadata: { beaconID: 'arbiter-test' },
    });
    expect((await fetch(`${r.url}/${'0'.repeat(64)}/public/1`)).status).toBe(404);
    expect((await fetch(`${r.url}/${chain.chainHash}/public/latest`)).status).toBe(400);
    expect(r.count(path(101))).toBe(1);
  });

  it('runs as a program for a server in another process: its URL on stdout, its chain in the ARBITER_BEACON_CHAINS file', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'arbiter-b32-relay-cli-'));
    const file = join(folder, 'chains.json');
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/loopbackRelay.ts', '--chains', file, '--port', '0', '--name', 'cli-net'], {
      cwd: join(import.meta.dirname, '../../..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout!.on('data', (chunk) => {
          out += chunk;
          if (out.includes('\n')) resolve(out.split('\n')[0]);
        });
        child.once('exit', (code) => reject(new Error(`the relay stopped (${code}) before printing its URL`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const cliChain = beaconChainsOf(readSettings({ ARBITER_BEACON_CHAINS: file, ARBITER_DRAND_RELAYS: url }).settings).get('cli-net')!;
      expect(cliChain).toMatchObject({ chain: 'cli-net', period: 1 });
      expect(await client([url]).round(cliChain, 2)).toMatchObject({ round: 2 });
      const stopped = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await stopped).toBe(0);
    } finally {
      clearTimeout(killer);
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('BeaconRelay', () => {
  it('verifies the real quicknet rounds of docs/beacon.md through a relay', async () => {
    const r = await startLoopbackRelay();
    relays.push(r);
    const relayClient = client([r.url]);
    expect(QUICKNET_BEACONS.length).toBeGreaterThanOrEqual(4);
    for (const beacon of QUICKNET_BEACONS) expect(await relayClient.round(QUICKNET, beacon.round)).toEqual(beacon);
  });

  it('asks the relays in order and stops at the first valid answer', async () => {
    const [first, second] = [await relay(), await relay()];
    expect(await client([first.url, second.url]).round(chain, 100)).toEqual({ round: 100, signature: test.sign(100) });
    expect(first.requests).toEqual([path(100)]);
    expect(second.requests).toEqual([]);
  });

  it.each(['refuse', '503'] as const)('moves on to the second relay when the first is down (%s), and back once it is up', async (how) => {
    const [first, second] = [await relay(), await relay()];
    await first.down(how);
    const relayClient = client([first.url, second.url], { attempts: 1 });
    expect(await relayClient.round(chain, 99)).toEqual({ round: 99, signature: test.sign(99) });
    expect(second.requests).toEqual([path(99)]);
    await first.up();
    expect(await relayClient.round(chain, 98)).toEqual({ round: 98, signature: test.sign(98) });
    expect(second.requests).toEqual([path(99)]);
  });

  it.each(['wrong-signature', 'wrong-round', 'wrong-randomness', 'not-json'] as const)(
    'refuses a first relay that answers with a %s and uses the second one',
    async (how: Misbehaviour) => {
      const [first, second] = [await relay(), await relay()];
      first.misbehave(chain.chainHash, 100, how);
      expect(await client([first.url, second.url], { attempts: 1 }).round(chain, 100)).toEqual({ round: 100, signature: test.sign(100) });
      expect(first.count(path(100))).toBe(1);
      expect(second.count(path(100))).toBe(1);
    },
  );

  it('is unavailable, saying why for each relay, when every relay answers a wrong signature', async () => {
    const [first, second] = [await relay(), await relay()];
    first.misbehave(chain.chainHash, 100, 'wrong-signature');
    second.misbehave(chain.chainHash, 100, 'not-json');
    const refused = client([first.url, second.url], { attempts: 2 }).round(chain, 100);
    await expect(refused).rejects.toBeInstanceOf(BeaconUnavailable);
    await expect(refused).rejects.toThrow(/relay 1 \(127\.0\.0\.1:\d+\) answered a signature that does not verify under the key of arbiter-test; relay 2 .* not JSON/);
    // A real quicknet signature served for another round is refused by BLS alone.
    first.misbehave(QUICKNET.chainHash, 42, 'wrong-signature');
    await expect(client([first.url], { attempts: 1 }).round(QUICKNET, 42)).rejects.toThrow(/does not verify under the key of quicknet/);
  });

  it('says a round is not published while every relay says so, and gives it once its time has come', async () => {
    const [first, second] = [await relay(), await relay()];
    const relayClient = client([first.url, second.url]);
    await expect(relayClient.round(chain, 101)).rejects.toBeInstanceOf(BeaconNotPublished);
    // "Not yet" is an answer: no retry pass.
    expect([first.count(path(101)), second.count(path(101))]).toEqual([1, 1]);
    nowMs = roundTimeMs(chain, 101);
    expect(await relayClient.round(chain, 101)).toEqual({ round: 101, signature: test.sign(101) });
  });

  it('is unavailable, not "not published", when one relay says "not yet" and another is down', async () => {
    const [first, second] = [await relay(), await relay()];
    await first.down('503');
    await expect(client([first.url, second.url], { attempts: 1 }).round(chain, 101)).rejects.toBeInstanceOf(BeaconUnavailable);
  });

  it('answers a verified round from its cache, and the same round asked twice at once with one request', async () => {
    const r = await relay();
    const relayClient = client([r.url]);
    const [a, b] = await Promise.all([relayClient.round(chain, 100), relayClient.round(chain, 100)]);
    expect(a).toEqual(b);
    expect(r.count(path(100))).toBe(1);
    await r.down();
    expect(await relayClient.round(chain, 100)).toEqual({ round: 100, signature: test.sign(100) });
    // Another chain's round of the same number is not the cached one.
    await expect(relayClient.round(QUICKNET, 100)).rejects.toBeInstanceOf(BeaconUnavailable);
  });

  it('keeps at most cacheSize rounds, dropping the least recently used', async () => {
    const r = await relay();
    const relayClient = client([r.url], { cacheSize: 2 });
    for (const round of [90, 91, 90, 92]) await relayClient.round(chain, round);
    expect([r.count(path(90)), r.count(path(91)), r.count(path(92))]).toEqual([1, 1, 1]);
    await relayClient.round(chain, 90);
    expect(r.count(path(90))).toBe(1);
    await relayClient.round(chain, 91);
    expect(r.count(path(91))).toBe(2);
  });

  it('makes a bounded number of attempts over the relays, then gives up', async () => {
    const [first, second] = [await relay(), await relay()];
    await first.down('503');
    await second.down('503');
    await expect(client([first.url, second.url], { attempts: 3 }).round(chain, 100)).rejects.toThrow(/no relay gave a valid drand round 100 of arbiter-test \(3 attempts\): relay 1 .* answered 503; relay 2 .* answered 503/);
    expect([first.count(path(100)), second.count(path(100))]).toEqual([3, 3]);
  });

  it('gives up on a relay that does not answer in time, and on an answer too large to be a beacon', async () => {
    const hanging: typeof fetch = (_url, init) => new Promise((_resolve, reject) => init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason)));
    await expect(client(['http://127.0.0.1:9'], { fetch: hanging, timeoutMs: 50, attempts: 2 }).round(chain, 100)).rejects.toThrow(/gave no answer within 50 ms/);
    const huge: typeof fetch = async () => new Response(`{"round":100,"pad":"${'x'.repeat(20_000)}"}`);
    await expect(client(['http://127.0.0.1:9'], { fetch: huge, attempts: 1 }).round(chain, 100)).rejects.toThrow(/answered more than 16384 bytes/);
  });

  it('puts only the base URL, the chain hash and the round in the URL, with or without a trailing /', async () => {
    const asked: string[] = [];
    const r = await relay();
    const recording: typeof fetch = (url, init) => {
      asked.push(String(url));
      return fetch(String(url).replace('/drand', ''), init);
    };
    await client([`${r.url}/drand/`], { fetch: recording }).round(chain, 97);
    await client([`${r.url}/drand`], { fetch: recording }).round(chain, 96);
    expect(asked).toEqual([`${r.url}/drand${path(97)}`, `${r.url}/drand${path(96)}`]);
    for (const bad of ['ftp://relay.test', 'https://user:pw@relay.test', 'https://relay.test/?key=1', 'https://relay.test/#x', 'relay.test']) {
      expect(() => client([bad]), bad).toThrow();
    }
    expect(() => client([])).toThrow(RangeError);
    await expect(client([r.url]).round(chain, 0)).rejects.toBeInstanceOf(RangeError);
  });
});
