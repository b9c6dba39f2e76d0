import type { Commit } from '../fairness/hashChain';
import { dieFigures, type DieFigures } from './dieFigures';

/** A game's dice of one size: all of them, then each role's (the commit's actor: a side, or the organizer). */
export interface DieSizeStats {
  sides: number;
  all: DieFigures;
  byRole: { role: string; figures: DieFigures }[];
}

export interface GameStats {
  gameId: string;
  /** Whether the game's dice go into the public statistics (its creation's `publicStats`, true unless false). */
  publicStats: boolean;
  dice: DieSizeStats[];
}

/** Face counts by die size, then by role; Maps, since roles may be names players chose. */
export type Tally = Map<number, Map<string, number[]>>;

export const isSealed = (commits: readonly Commit[]): boolean => commits.some((commit) => commit.events.some((event) => event.type === 'GameSealed'));

/** Commit 1 records the creation request: a game is counted publicly unless it said `"publicStats": false`. */
export function countsPublicly(commits: readonly Commit[]): boolean {
  const first = commits[0];
  if (!first || first.command.type !== 'CreateGame') return false;
  const payload = first.command.payload as { publicStats?: unknown } | null | undefined;
  return payload?.publicStats !== false;
}

/** fairness-v1 §4: dice have 2 to 1000 sides. */
const MAX_SIDES = 1000;
const isDie = (die: unknown): die is { sides: number; value: number } => {
  const { sides, value } = (die ?? {}) as { sides?: unknown; value?: unknown };
  return Number.isInteger(sides) && Number.isInteger(value) && (sides as number) >= 2 && (sides as number) <= MAX_SIDES && (value as number) >= 1 && (value as number) <= (sides as number);
};

/**
 * Who rolled a commit's dice: its actor, except in a beacon game's reveal (beacon.md §2.3),
 * whose actor is the server and whose dice are those of the pending commit before it.
 */
function rollerOf(commit: Commit, previous: Commit | undefined): string {
  if (commit.command.type !== 'RevealBeacon' || previous?.seq !== commit.seq - 1) return commit.actor;
  return previous.actor;
}

/** Every die of every commit, by size and by the role that sent the command. */
export function tallyDice(commits: readonly Commit[]): Tally {
  const tally: Tally = new Map();
  for (const [index, commit] of commits.entries()) {
    const roller = rollerOf(commit, commits[index - 1]);
    for (const die of commit.dice) {
      if (!isDie(die)) throw new RangeError(`commit ${commit.seq} lists a die that is not a die of 2 to ${MAX_SIDES} sides with a face on it: ${JSON.stringify(die)}`);
      const byRole = tally.get(die.sides) ?? new Map<string, number[]>();
      tally.set(die.sides, byRole);
      const counts = byRole.get(roller) ?? new Array<number>(die.sides).fill(0);
      byRole.set(roller, counts);
      counts[die.value - 1] += 1;
    }
  }
  return tally;
}

/** The counts of one die size, every role together. */
export function totalCounts(sides: number, byRole: ReadonlyMap<string, readonly number[]>): number[] {
  const total = new Array<number>(sides).fill(0);
  for (const counts of byRole.values()) counts.forEach((n, i) => (total[i] += n));
  return total;
}

/** The statistics of a game's dice, smallest die first, roles in the order they first rolled. */
export function gameStats(gameId: string, commits: readonly Commit[]): GameStats {
  const tally = tallyDice(commits);
  const dice = [...tally.entries()]
    .sort(([a], [b]) => a - b)
    .map(([sides, byRole]) => ({
      sides,
      all: dieFigures(totalCounts(sides, byRole)),
      byRole: [...byRole.entries()].map(([role, counts]) => ({ role, figures: dieFigures(counts) })),
    }));
  return { gameId, publicStats: countsPublicly(commits), dice };
}
