import { ApplicationError } from './errors';
import { quotaClientOf } from './quotaClient';
import type { CreationCounter } from '../ports/creationCounter';
export type { CreationCounter } from '../ports/creationCounter';

/** How many games (and tournaments) one client may create in an hour. */
export interface QuotaPolicy {
  perHour: number;
}

const HOUR_SECONDS = 60 * 60;

export function quotaPolicyOf(perHour: string | undefined, source: string): QuotaPolicy | undefined {
  if (perHour === undefined || perHour.trim() === '' || perHour.trim() === '0') return undefined;
  const n = Number(perHour);
  if (!Number.isInteger(n) || n < 1 || n > 1_000_000) throw new Error(`${source} is a whole number of creations per hour from 1 to 1000000 (or 0 for no quota): got ${JSON.stringify(perHour)}`);
  return { perHour: n };
}

/**
 * POST /games and POST /tournaments need no token, so each client (its address as the
 * connection shows it, kept only as a keyed hash: quotaClient.ts) may create `perHour` of them
 * an hour; beyond, 429 with Retry-After until the hour ends. A tournament's games count
 * against the client that created the tournament. Only a creation that is about to be
 * stored is counted: not a refused one, nor one answered again for its Idempotency-Key.
 */
export class CreationQuota {
  constructor(
    private readonly counter: CreationCounter,
    private readonly policy: QuotaPolicy,
    private readonly now: () => string,
    /** A keyed hash of the client's address: the store never holds the address. */
    private readonly clientKey: (address: string) => Promise<string>,
  ) {}

  /** The keyed hash a client is counted under (a tournament keeps its creator's). */
  clientKeyOf(address: string | undefined): Promise<string> {
    return this.clientKey(quotaClientOf(address));
  }

  async admit(address: string | undefined): Promise<void> {
    return this.admitClient(await this.clientKeyOf(address));
  }

  async admitClient(client: string): Promise<void> {
    const now = Math.floor(Date.parse(this.now()) / 1000);
    const windowEnd = (Math.floor(now / HOUR_SECONDS) + 1) * HOUR_SECONDS;
    if (await this.counter.count(client, windowEnd, this.policy.perHour)) return;
    const retryAfter = windowEnd - now;
    throw new ApplicationError(
      429,
      'creation_quota',
      `This address has created ${this.policy.perHour} games or tournaments this hour (a tournament's games count for the address that created the tournament), the most one address may. Try again in ${Math.ceil(retryAfter / 60)} minutes.`,
      { perHour: this.policy.perHour, retryAfterSeconds: retryAfter },
      { 'retry-after': String(retryAfter) },
    );
  }
}
