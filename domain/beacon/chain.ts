import * as z from 'zod';

/** The one signature scheme beacon games accept (beacon.md §1): drand's unchained G1 signatures. */
export const BLS_UNCHAINED_G1 = 'bls-unchained-g1-rfc9380';

const hex = (bytes: number) => z.string().regex(new RegExp(`^[0-9a-f]{${bytes * 2}}$`), `${bytes} bytes in lowercase hex`);

/**
 * A drand chain as `GameCreated.beacon` records it (beacon.md §1): the name a game was
 * created with, the chain hash, the BLS public key (G2, compressed), the period and the
 * genesis (unix seconds).
 */
export const beaconChainSchema = z.strictObject({
  chain: z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'a chain name is 1 to 32 lowercase letters, digits or -'),
  chainHash: hex(32),
  publicKey: hex(96),
  period: z.number().int().min(1).max(3600),
  genesis: z.number().int().min(0),
  scheme: z.literal(BLS_UNCHAINED_G1),
});
export type BeaconChain = z.infer<typeof beaconChainSchema>;

/**
 * Checks one beacon signature: what domain/verify is given to check BLS (beaconSignatureValid,
 * or a cache of it). Declared here so that domain/verify names it without importing the BLS code.
 */
export type BeaconSignatureCheck = (chain: BeaconChain, round: number, signatureHex: string) => boolean;

/** League of Entropy's quicknet: a round every 3 s (beacon.md §1). */
export const QUICKNET: BeaconChain = Object.freeze({
  chain: 'quicknet',
  chainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971',
  publicKey:
    '83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a',
  period: 3,
  genesis: 1692803367,
  scheme: BLS_UNCHAINED_G1,
});

/** The chains every server and verifier knows without being told: others only when pinned. */
export const KNOWN_BEACON_CHAINS: readonly BeaconChain[] = [QUICKNET];

/** The same chain, field by field (a file may name a known hash with another key). */
export function sameChain(a: BeaconChain, b: BeaconChain): boolean {
  return a.chainHash === b.chainHash && a.publicKey === b.publicKey && a.period === b.period && a.genesis === b.genesis && a.scheme === b.scheme;
}

/** time(r) = genesis + (r − 1) × period, in milliseconds since the epoch. */
export function roundTimeMs(chain: Pick<BeaconChain, 'genesis' | 'period'>, round: number): number {
  return (chain.genesis + (round - 1) * chain.period) * 1000;
}

export function roundAtIso(chain: Pick<BeaconChain, 'genesis' | 'period'>, round: number): string {
  return new Date(roundTimeMs(chain, round)).toISOString();
}

/**
 * beacon.md §2.1: the round a command accepted at `recordedAt` waits for — the first whose
 * time is at least one whole period after it, so not yet published when the server signs.
 */
export function pendingRoundFor(chain: Pick<BeaconChain, 'genesis' | 'period'>, recordedAt: string): number {
  const target = Date.parse(recordedAt) + chain.period * 1000;
  const periodMs = chain.period * 1000;
  return Math.max(1, Math.ceil((target - chain.genesis * 1000) / periodMs) + 1);
}
