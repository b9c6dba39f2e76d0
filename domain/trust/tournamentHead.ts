import * as z from 'zod';
import { signStatementLater, signStatement, type SignHash } from './signedStatement';

/** One game as a tournament head lists it: its id and the `hash` of its signed game head (§4). */
export const TournamentHeadEntryShape = z.strictObject({
  gameId: z.string(),
  head: z.string().describe("the `hash` of the game's signed head (trust.md §4)"),
});
export type TournamentHeadEntry = z.infer<typeof TournamentHeadEntryShape>;

/**
 * trust.md §7: the server's signed word on which games make up a tournament, and where
 * each of them ends. Signed like a game head (§4); docs/verifier.md gives the exact form.
 */
export const TournamentHeadShape = z.object({
  type: z.literal('TournamentHead'),
  tournamentId: z.string(),
  /** Every game of the tournament, in creation order. */
  games: z.array(TournamentHeadEntryShape),
  /** ISO-8601, given by the caller. */
  at: z.string(),
  /** The signing key's kid. */
  kid: z.string(),
  hash: z.string(),
  signature: z.string(),
});
export type TournamentHead = z.infer<typeof TournamentHeadShape>;

export type TournamentHeadDraft = Omit<TournamentHead, 'type' | 'hash' | 'signature'>;

function unsigned(draft: TournamentHeadDraft) {
  return {
    type: 'TournamentHead' as const,
    tournamentId: draft.tournamentId,
    games: draft.games.map(({ gameId, head }) => ({ gameId, head })),
    at: draft.at,
    kid: draft.kid,
  };
}

export function buildTournamentHead(draft: TournamentHeadDraft, sign: SignHash): TournamentHead {
  return signStatement(unsigned(draft), sign);
}

/** buildTournamentHead for a signer that answers later (a key held by a key service). */
export function signTournamentHead(draft: TournamentHeadDraft, sign: (hashHex: string) => Promise<string>): Promise<TournamentHead> {
  return signStatementLater(unsigned(draft), sign);
}

/** A game line of a tournament export, as far as the listing check needs it. */
export interface ListedGameLine {
  /** Its line in the file, from 1 (the header is line 1). */
  line: number;
  gameId: string;
  /** The tournament its GameCreated names; undefined when it names none. */
  createdIn: string | undefined;
  /** The `hash` of the game's own head; undefined when it has none. */
  headHash: string | undefined;
}

export interface ListingProblem {
  /** The game it is about, when it is about one. */
  gameId?: string;
  /** Its line in the file; 0 for a game the file lacks, or the file as a whole. */
  line: number;
  reason: string;
}

/**
 * trust.md §7, given a tournament head whose signature is checked elsewhere: the games in
 * the file are exactly `expected` (the head's whole list, or the run of it a page covers),
 * in that order, each created in the tournament and ending at the head the list names.
 * Every problem names its game.
 */
export function listingProblems(tournamentId: string, expected: readonly TournamentHeadEntry[], lines: readonly ListedGameLine[]): ListingProblem[] {
  const problems: ListingProblem[] = [];
  const position = new Map<string, number>();
  expected.forEach((entry, index) => {
    if (position.has(entry.gameId)) problems.push({ gameId: entry.gameId, line: 0, reason: `the tournament head lists game ${entry.gameId} twice` });
    else position.set(entry.gameId, index);
  });
  const present = new Set<string>();
  let previous = -1;
  for (const game of lines) {
    const fault = (reason: string) => problems.push({ gameId: game.gameId, line: game.line, reason });
    const index = position.get(game.gameId);
    if (present.has(game.gameId)) continue; // reported as a game twice in the file
    present.add(game.gameId);
    if (game.createdIn !== tournamentId) {
      fault(game.createdIn === undefined ? `game ${game.gameId} was not created in a tournament` : `game ${game.gameId} was created in tournament ${game.createdIn}, not ${tournamentId}`);
    }
    if (index === undefined) {
      fault(`game ${game.gameId} is not one of the games the tournament head lists`);
      continue;
    }
    if (game.headHash !== expected[index].head) fault(`game ${game.gameId} does not end where the tournament head says: its head is not the one listed`);
    if (index < previous) fault(`game ${game.gameId} is out of order: the tournament head lists it before ${expected[previous].gameId}`);
    previous = Math.max(previous, index);
  }
  for (const entry of position.keys()) {
    if (!present.has(entry)) problems.push({ gameId: entry, line: 0, reason: `game ${entry} is listed by the tournament head but missing from the file` });
  }
  return problems;
}
