import type { BeaconSignatureCheck } from '../../domain/beacon/blsSignature';
import type { BeaconChain } from '../../domain/beacon/chain';
import { beaconRandomness } from '../../domain/beacon/randomness';
import { BeaconNotPublished, BeaconUnavailable, type BeaconSource, type VerifiedBeacon } from '../ports/beaconSource';

export interface BeaconRelayOptions {
  /** Base URLs of drand v1 HTTP relays, tried in order (beacon.md §7). */
  relays: readonly string[];
  /** The BLS check (beaconSignatureValid): given, so that only the bundle that reveals carries the BLS code. */
  check: BeaconSignatureCheck;
  fetch?: typeof fetch;
  /** Per request, body included. */
  timeoutMs?: number;
  /** Passes over the relays while none answers validly (a relay that says "not yet" ends the passes). */
  attempts?: number;
  /** Wait before the second pass; each further pass waits that much more. */
  retryDelayMs?: number;
  /** Verified rounds kept, least recently used dropped first. */
  cacheSize?: number;
}

const DEFAULTS = { timeoutMs: 5_000, attempts: 3, retryDelayMs: 500, cacheSize: 1_000 };
// A drand answer is about 300 bytes: a relay sending more is not a relay.
const MAX_ANSWER_BYTES = 16 * 1024;
const SIGNATURE = /^[0-9a-fA-F]{96}$/;

/**
 * A relay base URL as given (with or without a trailing /), refused unless it is http(s) with
 * no credentials, query or fragment: only the chain hash and the round are ever added to it.
 */
export function relayBaseOf(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new Error(`${JSON.stringify(text.slice(0, 64))} is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${JSON.stringify(text.slice(0, 64))} is not an http or https URL`);
  if (url.username || url.password || url.search || url.hash || text.includes('?') || text.includes('#')) {
    throw new Error(`${JSON.stringify(text.slice(0, 64))} must be a base URL without credentials, query or fragment`);
  }
  return url.href.replace(/\/+$/, '');
}

type Answer = { beacon: VerifiedBeacon } | { notPublished: true; problem: string } | { problem: string };

/**
 * Fetches drand rounds from relays (beacon.md §7) and believes none of them: every answer is
 * checked (its shape, its round, its randomness, its BLS signature under the chain's key), and
 * a relay that fails moves on to the next. Verified rounds are cached; the same round asked
 * twice at once is fetched once.
 */
export class BeaconRelay implements BeaconSource {
  private readonly relays: readonly string[];
  private readonly options: Required<Omit<BeaconRelayOptions, 'relays' | 'fetch'>> & { fetch: typeof fetch };
  private readonly cache = new Map<string, VerifiedBeacon>();
  private readonly inFlight = new Map<string, Promise<VerifiedBeacon>>();

  constructor(options: BeaconRelayOptions) {
    if (options.relays.length === 0) throw new RangeError('a BeaconRelay needs at least one relay');
    this.relays = options.relays.map(relayBaseOf);
    this.options = {
      check: options.check,
      fetch: options.fetch ?? fetch,
      timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
      attempts: Math.max(1, Math.floor(options.attempts ?? DEFAULTS.attempts)),
      retryDelayMs: Math.max(0, options.retryDelayMs ?? DEFAULTS.retryDelayMs),
      cacheSize: Math.max(1, Math.floor(options.cacheSize ?? DEFAULTS.cacheSize)),
    };
  }

  round(chain: BeaconChain, round: number): Promise<VerifiedBeacon> {
    if (!Number.isSafeInteger(round) || round < 1) return Promise.reject(new RangeError(`a drand round is a whole number from 1: got ${round}`));
    const key = `${chain.chainHash}/${chain.publicKey}/${round}`;
    const cached = this.cache.get(key);
    if (cached) {
      this.cache.delete(key);
      this.cache.set(key, cached);
      return Promise.resolve({ ...cached });
    }
    const running = this.inFlight.get(key);
    if (running) return running.then((beacon) => ({ ...beacon }));
    const fetched = this.fetchVerified(chain, round)
      .then((beacon) => {
        this.remember(key, beacon);
        return beacon;
      })
      .finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, fetched);
    return fetched.then((beacon) => ({ ...beacon }));
  }

  private remember(key: string, beacon: VerifiedBeacon) {
    this.cache.set(key, beacon);
    while (this.cache.size > this.options.cacheSize) this.cache.delete(this.cache.keys().next().value!);
  }

  private async fetchVerified(chain: BeaconChain, round: number): Promise<VerifiedBeacon> {
    let problems: string[] = [];
    for (let attempt = 1; attempt <= this.options.attempts; attempt++) {
      if (attempt > 1) await new Promise((resolve) => setTimeout(resolve, this.options.retryDelayMs * (attempt - 1)));
      problems = [];
      let notPublished = 0;
      for (const [index, relay] of this.relays.entries()) {
        const answer = await this.ask(relay, chain, round);
        if ('beacon' in answer) return answer.beacon;
        if ('notPublished' in answer) notPublished++;
        problems.push(`relay ${index + 1} (${hostOf(relay)}) ${answer.problem}`);
      }
      if (notPublished === this.relays.length) throw new BeaconNotPublished(`drand round ${round} of ${chain.chain} is not published yet: ${problems.join('; ')}`);
    }
    throw new BeaconUnavailable(`no relay gave a valid drand round ${round} of ${chain.chain} (${this.options.attempts} attempts): ${problems.join('; ')}`);
  }

  private async ask(relay: string, chain: BeaconChain, round: number): Promise<Answer> {
    let response: Response;
    try {
      response = await this.options.fetch(`${relay}/${chain.chainHash}/public/${round}`, {
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      return { problem: unreachable(error, this.options.timeoutMs) };
    }
    // drand's relays answer 404 for a round whose time has not come (425 Too Early from some proxies).
    if (response.status === 404 || response.status === 425) {
      await response.body?.cancel().catch(() => undefined);
      return { notPublished: true, problem: `answered ${response.status}: not published` };
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      return { problem: `answered ${response.status}` };
    }
    let text: string;
    try {
      text = await boundedText(response, MAX_ANSWER_BYTES);
    } catch (error) {
      return { problem: unreachable(error, this.options.timeoutMs) };
    }
    return this.checked(text, chain, round);
  }

  private checked(text: string, chain: BeaconChain, round: number): Answer {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { problem: 'answered something that is not JSON' };
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return { problem: 'answered JSON that is not a beacon' };
    const { round: answered, signature, randomness } = body as Record<string, unknown>;
    if (answered !== round) return { problem: `answered round ${JSON.stringify(answered)?.slice(0, 24)} for round ${round}` };
    if (typeof signature !== 'string' || !SIGNATURE.test(signature)) return { problem: 'answered no 48-byte hex signature' };
    const lower = signature.toLowerCase();
    if (randomness !== undefined && (typeof randomness !== 'string' || randomness.toLowerCase() !== beaconRandomness(lower))) {
      return { problem: 'answered a randomness that is not SHA-256 of its signature' };
    }
    if (!this.options.check(chain, round, lower)) return { problem: `answered a signature that does not verify under the key of ${chain.chain}` };
    return { beacon: { round, signature: lower } };
  }
}

const hostOf = (relay: string) => new URL(relay).host;

function unreachable(error: unknown, timeoutMs: number): string {
  const name = (error as Error | undefined)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return `gave no answer within ${timeoutMs} ms`;
  if (name === 'AnswerTooLarge') return (error as Error).message;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const why = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : (error as Error | undefined)?.message;
  return `could not be reached (${String(why ?? 'unknown error').slice(0, 80)})`;
}

/** The body as text, refused beyond `limit` bytes without reading the rest. */
async function boundedText(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw Object.assign(new Error(`answered more than ${limit} bytes`), { name: 'AnswerTooLarge' });
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}
