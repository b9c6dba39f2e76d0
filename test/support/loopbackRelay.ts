/**
 * A drand v1 HTTP relay on 127.0.0.1 for the tests (beacon.md §7).
 *
 *   GET /{chainHash}/public/{round}  200 { round, randomness, signature } (hex; randomness = SHA-256 of the signature)
 *   GET /{chainHash}/info            200 { public_key, period, genesis_time, hash, groupHash, schemeID, metadata }
 *
 * It serves quicknet's real rounds of docs/beacon.md (other quicknet rounds: 404) and any test
 * chain of testBeaconChain.ts, each round only once its time has come (time(r) ≤ now). A round
 * not out yet gets 404 with a Cache-Control until its time, as drand's own relays answer
 * (drand/drand handler/http/server.go: a round in the future is StatusNotFound, not 425).
 * An unknown chain hash is 404 too, a round that is no number 400.
 *
 * Controls for tests: down('refuse') closes the port (connections refused), down('503') answers
 * 503 to everything, up() serves again on the same port; misbehave() makes one round's answer
 * wrong; requests / count() tell what was asked.
 *
 * As a program, for suites that start the server in another process:
 *
 *   node --import tsx test/support/loopbackRelay.ts --chains FILE [--port 0] [--name arbiter-test] [--period 1]
 *
 * makes one test chain (genesis a minute ago), writes FILE in the ARBITER_BEACON_CHAINS format
 * (docs/settings.md), prints the relay's base URL on one line of stdout and serves until SIGTERM
 * or SIGINT. Start the server with ARBITER_DRAND_RELAYS=<that URL> ARBITER_BEACON_CHAINS=FILE.
 */
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { QUICKNET, roundTimeMs, type BeaconChain } from '../../domain/beacon/chain';
import { beaconRandomness } from '../../domain/beacon/randomness';
import { QUICKNET_BEACONS } from '../domain/beacon/vector';
import { testBeaconChain, type TestBeaconChain } from './testBeaconChain';

/** How one round's answer goes wrong, to prove a client refuses it. */
export type Misbehaviour =
  /** A valid BLS signature of the chain, of another round, with its randomness: only the BLS check catches it. */
  | 'wrong-signature'
  /** The right beacon under another round number. */
  | 'wrong-round'
  /** The right signature with a randomness that is not its hash. */
  | 'wrong-randomness'
  /** A 200 whose body is not JSON. */
  | 'not-json';

export interface LoopbackRelay {
  /** http://127.0.0.1:<port>, no trailing slash. */
  readonly url: string;
  /** Every path asked, in order (while down('refuse'), nothing reaches it). */
  readonly requests: readonly string[];
  count(path: string): number;
  addChain(chain: TestBeaconChain): void;
  misbehave(chainHash: string, round: number, how: Misbehaviour | undefined): void;
  down(how?: 'refuse' | '503'): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

interface Served {
  chain: BeaconChain;
  signature(round: number): string | undefined;
  /** A valid signature of the chain, of another round. */
  another(round: number): string;
}

export async function startLoopbackRelay(options: { chains?: readonly TestBeaconChain[]; now?: () => number; port?: number } = {}): Promise<LoopbackRelay> {
  const now = options.now ?? Date.now;
  const real = new Map(QUICKNET_BEACONS.map((b) => [b.round, b.signature]));
  const anotherReal = (round: number) => QUICKNET_BEACONS.find((b) => b.round !== round)!.signature;
  const chains = new Map<string, Served>([[QUICKNET.chainHash, { chain: QUICKNET, signature: (round) => real.get(round), another: anotherReal }]]);
  const addChain = (test: TestBeaconChain) =>
    chains.set(test.chain.chainHash, { chain: test.chain, signature: (round) => test.sign(round), another: (round) => test.sign(round + 1) });
  for (const test of options.chains ?? []) addChain(test);
  const misbehaviours = new Map<string, Misbehaviour>();
  const requests: string[] = [];
  let unavailable = false;

  const answer = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', 'access-control-allow-origin': '*', ...headers });
    res.end(body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body));
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    requests.push(path);
    if (unavailable) return answer(res, 503, { error: 'relay down for the test' });
    if (req.method !== 'GET' && req.method !== 'HEAD') return answer(res, 405, undefined, { allow: 'GET, HEAD' });
    const match = path.match(/^\/([0-9a-f]{64})\/(info|public\/([^/]+))$/);
    const served = match ? chains.get(match[1]) : undefined;
    if (!match || !served) return answer(res, 404, 'not found\n', { 'content-type': 'text/plain' });
    const { chain } = served;
    if (match[2] === 'info') {
      return answer(res, 200, {
        public_key: chain.publicKey,
        period: chain.period,
        genesis_time: chain.genesis,
        hash: chain.chainHash,
        groupHash: chain.chainHash,
        schemeID: chain.scheme,
        metadata: { beaconID: chain.chain },
      });
    }
    if (!/^[1-9][0-9]{0,15}$/.test(match[3])) return answer(res, 400);
    const round = Number(match[3]);
    const untilMs = roundTimeMs(chain, round) - now();
    if (untilMs > 0) return answer(res, 404, undefined, { 'cache-control': `public, must-revalidate, max-age=${Math.ceil(untilMs / 1000)}` });
    const signature = served.signature(round);
    if (!signature) return answer(res, 404, undefined, { 'cache-control': 'must-revalidate, no-cache, max-age=0' });
    const how = misbehaviours.get(`${chain.chainHash}/${round}`);
    if (how === 'not-json') return answer(res, 200, '<html>relay error</html>');
    const wrong = how === 'wrong-signature' ? served.another(round) : signature;
    const randomness = how === 'wrong-randomness' ? beaconRandomness(wrong).replace(/^./, (c) => (c === '0' ? '1' : '0')) : beaconRandomness(wrong);
    answer(res, 200, { round: how === 'wrong-round' ? round + 1 : round, randomness, signature: wrong }, { 'cache-control': 'public, max-age=604800, immutable' });
  };

  let server: Server | undefined;
  const listen = async (port: number) => {
    const next = createServer(handle);
    await new Promise<void>((resolve, reject) => {
      next.once('error', reject);
      next.listen(port, '127.0.0.1', () => resolve());
    });
    server = next;
    return (next.address() as AddressInfo).port;
  };
  const stop = async () => {
    const current = server;
    server = undefined;
    if (!current) return;
    // fetch keeps connections alive: close them, or close() waits for them.
    current.closeAllConnections();
    await new Promise<void>((resolve) => current.close(() => resolve()));
  };
  const port = await listen(options.port ?? 0);

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    count: (path) => requests.filter((p) => p === path).length,
    addChain,
    misbehave: (chainHash, round, how) => (how ? misbehaviours.set(`${chainHash}/${round}`, how) : misbehaviours.delete(`${chainHash}/${round}`)),
    down: async (how = 'refuse') => {
      if (how === '503') unavailable = true;
      else await stop();
    },
    // The same port again: an ephemeral port is not handed to another listener in the meantime.
    up: async () => {
      unavailable = false;
      if (!server) await listen(port);
    },
    close: stop,
  };
}

/** The chains as ARBITER_BEACON_CHAINS reads them: `{ name, chainHash, publicKey, period, genesis, scheme }` each. */
export function beaconChainsFileText(chains: readonly BeaconChain[]): string {
  return `${JSON.stringify(
    chains.map(({ chain, ...rest }) => ({ name: chain, ...rest })),
    null,
    2,
  )}\n`;
}

async function main() {
  const { values } = parseArgs({ options: { chains: { type: 'string' }, port: { type: 'string', default: '0' }, name: { type: 'string' }, period: { type: 'string', default: '1' } } });
  if (!values.chains) throw new Error('--chains FILE is required: where to write the test chain for ARBITER_BEACON_CHAINS');
  const test = testBeaconChain({ name: values.name, period: Number(values.period) });
  writeFileSync(values.chains, beaconChainsFileText([test.chain]));
  const relay = await startLoopbackRelay({ chains: [test], port: Number(values.port) });
  process.stdout.write(`${relay.url}\n`);
  const stop = () => void relay.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: Error) => {
    process.stderr.write(`loopbackRelay: ${error.message}\n`);
    process.exit(1);
  });
}
