import { beaconChainSchema, KNOWN_BEACON_CHAINS, pendingRoundFor, roundAtIso, roundTimeMs, sameChain, type BeaconChain, type BeaconSignatureCheck } from '../beacon/chain';
import type { Commit } from '../fairness/hashChain';
import { RevealBeacon, revealCommandId, SERVER_ACTOR } from '../game/gameCommands';
import type { Fail } from './exportBundle';
import { shown } from './shown';

/** How a verifier checks beacon games (beacon.md §5): the BLS check is passed in, so that domain/verify carries no BLS code. */
export interface BeaconVerifyOptions {
  /** Checks a drand signature (beaconSignatureValid, or a cache of it). Without it, a beacon game fails: its dice cannot be checked. */
  check?: BeaconSignatureCheck;
  /**
   * Chains the person pinned (--trust-beacon), which the verifier does not know: `chainHash`, trusting the public key
   * the file records for it, or `chainHash:publicKey`, binding the key as the chain's operator published it.
   */
  trustedChains?: readonly string[];
}

export const NO_BLS_CHECK = 'this verifier does not check drand signatures, so the dice of this beacon game cannot be checked here';

/**
 * The chain commit 1's GameCreated records, when the game is a beacon game, and whether it
 * may be trusted: a chain this verifier knows, field by field, or one whose hash the person
 * pinned. A known chain's hash (or name) with anything else differing is refused even when
 * pinned: it claims to be that chain and is not. Failures are labelled commit 1.
 */
export function gameBeaconChain(recorded: unknown, options: BeaconVerifyOptions | undefined, fail: Fail): BeaconChain | undefined {
  if (recorded === undefined) return undefined;
  const parsed = beaconChainSchema.safeParse(recorded);
  if (!parsed.success) {
    fail(1, 'beacon', 'GameCreated records a beacon chain that is not { chain, chainHash, publicKey, period, genesis, scheme }');
    return undefined;
  }
  const chain = parsed.data;
  const known = KNOWN_BEACON_CHAINS.find((k) => k.chainHash === chain.chainHash || k.chain === chain.chain);
  if (known) {
    if (!sameChain(known, chain) || known.chain !== chain.chain) {
      fail(1, 'beacon', `GameCreated records a drand chain that claims to be ${known.chain} (by its name or hash) but differs from it in ${differences(known, chain)}`);
    }
  } else {
    const pins = (options?.trustedChains ?? []).filter((pin) => pin === chain.chainHash || pin.startsWith(`${chain.chainHash}:`));
    const keys = pins.filter((pin) => pin.includes(':')).map((pin) => pin.slice(pin.indexOf(':') + 1));
    if (pins.length === 0) {
      fail(
        1,
        'beacon',
        `the game uses the drand chain ${shown(chain.chain)} (${chain.chainHash}), which this verifier does not know: ` +
          `if you trust it (your own server's chain), pin it with --trust-beacon ${chain.chainHash}:<its public key, as its operator publishes it>`,
      );
    } else if (keys.length > 0 && !keys.includes(chain.publicKey)) {
      fail(1, 'beacon', `the game's drand chain ${shown(chain.chain)} has the hash you pinned but another public key than the one you pinned with it`);
    }
  }
  if (!options?.check) fail(1, 'beacon', NO_BLS_CHECK);
  return chain;
}

function differences(known: BeaconChain, chain: BeaconChain): string {
  const fields = (['chain', 'chainHash', 'publicKey', 'period', 'genesis', 'scheme'] as const).filter((field) => known[field] !== chain[field]);
  return fields.join(', ');
}

interface PendingRound {
  round: number;
  roundAt: unknown;
}

function pendingOf(commit: Commit | undefined): PendingRound | undefined {
  const event = commit?.events[0];
  if (event?.type !== 'BeaconRollPending') return undefined;
  return { round: typeof event.data.round === 'number' ? event.data.round : NaN, roundAt: event.data.roundAt };
}

/**
 * beacon.md §5, what the rules replay does not say in its own words: every pending commit
 * names the first round at least one period after it was accepted (an earlier one may have
 * been published already); the next commit is its reveal, by the server, naming it and its
 * round; nothing else follows a pending commit; a reveal is recorded no earlier than its
 * round's time; and each beacon's BLS signature verifies, each distinct round once. An
 * unsealed export may end with a pending commit. Gives how many distinct rounds were checked.
 */
export function checkBeacons(commits: readonly Commit[], chain: BeaconChain, check: BeaconSignatureCheck | undefined, fail: Fail): number {
  const verified = new Map<string, boolean>();
  const rounds = new Set<number>();
  for (const [index, commit] of commits.entries()) {
    const seq = index + 1;
    const waiting = pendingOf(commits[index - 1]);
    if (commit.command.type === 'RevealBeacon') {
      const payload = RevealBeacon.safeParse(commit.command.payload);
      if (!payload.success) {
        fail(seq, 'beacon', 'the reveal does not hold { pending, round, signature } (a round number and 48 bytes of hex)');
        continue;
      }
      const { pending, round, signature } = payload.data;
      if (!waiting) fail(seq, 'beacon', `a reveal of commit ${pending}, but commit ${seq - 1} is not a pending roll`);
      else if (pending !== seq - 1 || round !== waiting.round) {
        fail(seq, 'beacon', `the reveal names commit ${pending} and round ${round}, but commit ${seq - 1} waits for round ${waiting.round}`);
      }
      if (commit.actor !== SERVER_ACTOR || commit.as !== undefined || commit.commandId !== revealCommandId(pending)) {
        fail(seq, 'beacon', `a reveal is sent by the server alone, with commandId ${shown(revealCommandId(pending))}`);
      }
      const recordedAt = Date.parse(commit.recordedAt);
      if (!(recordedAt >= roundTimeMs(chain, round))) {
        fail(seq, 'beacon', `the reveal is recorded at ${shown(commit.recordedAt)}, before drand round ${round} was published (${roundAtIso(chain, round)}): the server could not have had it`);
      }
      if (!check) continue;
      const key = `${round}/${signature}`;
      let valid = verified.get(key);
      if (valid === undefined) {
        valid = check(chain, round, signature);
        verified.set(key, valid);
      }
      rounds.add(round);
      if (!valid) fail(seq, 'beacon', `the drand signature of round ${round} does not verify under the public key of ${chain.chain}`);
    } else if (waiting) {
      fail(seq, 'beacon', `commit ${seq - 1} waits for drand round ${waiting.round}, but commit ${seq} is not its reveal: the server must reveal every pending roll before anything else`);
    }
    const pending = pendingOf(commit);
    if (pending) {
      const expected = pendingRoundFor(chain, commit.recordedAt);
      if (pending.round !== expected) {
        const published = Number.isFinite(pending.round) && roundTimeMs(chain, pending.round) <= Date.parse(commit.recordedAt);
        fail(
          seq,
          'beacon',
          `the pending roll names drand round ${shown(pending.round)}, but the first round at least one period after it was accepted (${shown(commit.recordedAt)}) is ${expected}` +
            (published ? `: round ${pending.round} was already published when the roll was accepted, so its dice could be known in advance` : ''),
        );
      }
    }
  }
  return rounds.size;
}
