import { DiceStream } from '../fairness/diceStream';
import { gameKeyOf, type EntropyEntry } from '../fairness/gameKey';
import type { Commit } from '../fairness/hashChain';
import { noProgress, type CheckProgress } from './checkProgress';
import type { Fail } from './exportBundle';
import { messageOf } from './shown';

/**
 * fairness-v1 §4: every recorded die equals the one the seed gives, and entropy was
 * only added before the first die. Commits are labelled by their position. Gives
 * the number of dice re-derived.
 */
export function checkDice(gameId: string, seed: Uint8Array, commits: readonly Commit[], fail: Fail, progress: CheckProgress = noProgress): number {
  const entropy: EntropyEntry[] = [];
  let gameKey: Uint8Array | undefined;
  let checked = 0;
  for (const [index, commit] of commits.entries()) {
    const seq = index + 1;
    for (const event of commit.events) {
      if (event.type !== 'EntropyContributed') continue;
      if (gameKey) fail(seq, 'entropy', 'entropy was added after the first die');
      const { by, entropy: text } = event.data;
      if (typeof by !== 'string' || typeof text !== 'string') {
        fail(seq, 'entropy', 'the entropy or who added it is not text');
        return checked;
      }
      entropy.push([by, text]);
    }
    progress('dice', seq, commits.length);
    if (commit.dice.length === 0) continue;
    if (!gameKey) {
      try {
        gameKey = gameKeyOf(seed, gameId, entropy);
      } catch (error) {
        fail(seq, 'entropy', `the game key cannot be computed: ${messageOf(error)}`);
        return checked;
      }
    }
    const stream = new DiceStream(gameKey, seq);
    for (const [i, die] of commit.dice.entries()) {
      let expected: number;
      try {
        expected = stream.roll(die.sides);
      } catch {
        fail(seq, 'dice', `die ${i + 1} has ${die.sides} sides, outside 2 to 1000`);
        break;
      }
      checked += 1;
      if (expected !== die.value) {
        fail(seq, 'dice', `die ${i + 1} (d${die.sides}) is ${die.value}, the seed gives ${expected}`);
        break;
      }
    }
  }
  return checked;
}
