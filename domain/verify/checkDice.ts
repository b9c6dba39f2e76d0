import type { BeaconChain } from '../beacon/chain';
import { beaconKeyOf, beaconRandomness } from '../beacon/randomness';
import { DiceStream } from '../fairness/diceStream';
import { gameKeyOf, type EntropyEntry } from '../fairness/gameKey';
import type { Commit } from '../fairness/hashChain';
import { RevealBeacon } from '../game/gameCommands';
import { noProgress, type CheckProgress } from './checkProgress';
import type { Fail } from './exportBundle';
import { messageOf } from './shown';

/**
 * fairness-v1 §4: every recorded die equals the one the seed gives, and entropy was
 * only added before the first die. In a beacon game (beacon.md §3) only reveals draw, each
 * from the seed and its drand round, and entropy is locked from the first pending roll.
 * Commits are labelled by their position. Gives the number of dice re-derived.
 */
export function checkDice(gameId: string, seed: Uint8Array, commits: readonly Commit[], fail: Fail, progress: CheckProgress = noProgress, beacon?: BeaconChain): number {
  const entropy: EntropyEntry[] = [];
  let gameKey: Uint8Array | undefined;
  let checked = 0;
  for (const [index, commit] of commits.entries()) {
    const seq = index + 1;
    for (const event of commit.events) {
      if (event.type !== 'EntropyContributed') continue;
      if (gameKey) fail(seq, 'entropy', `entropy was added after the first ${beacon ? 'roll' : 'die'}`);
      const { by, entropy: text } = event.data;
      if (typeof by !== 'string' || typeof text !== 'string') {
        fail(seq, 'entropy', 'the entropy or who added it is not text');
        return checked;
      }
      entropy.push([by, text]);
    }
    progress('dice', seq, commits.length);
    const locks = commit.dice.length > 0 || (beacon !== undefined && commit.events.some((e) => e.type === 'BeaconRollPending'));
    if (!locks) continue;
    if (!gameKey) {
      try {
        gameKey = gameKeyOf(seed, gameId, entropy);
      } catch (error) {
        fail(seq, 'entropy', `the game key cannot be computed: ${messageOf(error)}`);
        return checked;
      }
    }
    if (commit.dice.length === 0) continue;
    const source = beacon ? beaconStream(gameKey, beacon, commit) : { stream: new DiceStream(gameKey, seq), from: 'the seed' };
    if (typeof source === 'string') {
      fail(seq, 'dice', source);
      continue;
    }
    for (const [i, die] of commit.dice.entries()) {
      let expected: number;
      try {
        expected = source.stream.roll(die.sides);
      } catch {
        fail(seq, 'dice', `die ${i + 1} has ${die.sides} sides, outside 2 to 1000`);
        break;
      }
      checked += 1;
      if (expected !== die.value) {
        fail(seq, 'dice', `die ${i + 1} (d${die.sides}) is ${die.value}, ${source.from} gives ${expected}`);
        break;
      }
    }
  }
  return checked;
}

/** beacon.md §3: the stream of a reveal, keyed by the seed's game key and its round's beacon; or why there is none. */
function beaconStream(gameKey: Uint8Array, chain: BeaconChain, commit: Commit): { stream: DiceStream; from: string } | string {
  if (commit.command.type !== 'RevealBeacon') return "in a beacon game only the server's reveal of a pending roll draws dice";
  const payload = RevealBeacon.safeParse(commit.command.payload);
  if (!payload.success) return 'the reveal does not name its pending commit, round and signature';
  const { pending, round, signature } = payload.data;
  return { stream: new DiceStream(beaconKeyOf(gameKey, chain.chainHash, round, beaconRandomness(signature)), pending), from: `the seed with drand round ${round}` };
}
