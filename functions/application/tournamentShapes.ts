import * as z from 'zod';
import { playerText } from '../../domain/playerText';
import { GameHeadShape } from '../../domain/trust/gameHead';
import { CommitShape } from '../../domain/verify/bundleShape';
import { CreateGameBody } from '../../domain/game/gameCommands';
import { TimeControl } from '../../domain/game/clock';

/** POST /tournaments. */
export const CreateTournamentRequest = z.strictObject({
  name: playerText(200).optional().describe('shown on the listing, e.g. "Club championship 2026, round 1"'),
  randomness: CreateGameBody.shape.randomness.describe('every game of the tournament is a beacon game of this drand chain (docs/beacon.md); a game may repeat it, not name another'),
  timeControl: CreateGameBody.shape.timeControl.describe("every game created with the tournament's token has this time control unless it sets its own (docs/clocks.md)"),
});
export type CreateTournamentRequest = z.infer<typeof CreateTournamentRequest>;

/** 201 of POST /tournaments: the organizer's token is shown this once. */
export const TournamentCreated = z.object({
  tournamentId: z.string(),
  name: z.string(),
  createdAt: z.string(),
  token: z.string().describe("the tournament organizer's bearer token, shown only this once"),
  randomness: z.strictObject({ beacon: z.string() }).optional().describe('present for a beacon tournament: the chain of all its games'),
  timeControl: TimeControl.optional().describe('the time control its games have unless they set their own'),
});

/** One game of a tournament, as GET /tournaments/{id} lists it. */
export const TournamentGame = z.object({
  gameId: z.string(),
  ruleset: z.string(),
  title: z.string(),
  sides: z.array(z.string()),
  version: z.int(),
  sealed: z.boolean(),
  toMove: z.string().nullable().describe("whose move it is by the ruleset's turn model (docs/clocks.md); null when the game waits on no side"),
  overdue: z.array(z.string()).describe("the side to move, when it is past the game's time control now; empty otherwise"),
  head: GameHeadShape.describe("the server's signed head of the game (trust.md §4)"),
});

/** 200 of GET /tournaments/{id}: a page of its games in the order they were created. */
export const TournamentListing = z.object({
  tournamentId: z.string(),
  name: z.string(),
  createdAt: z.string(),
  games: z.array(TournamentGame).describe('at most `limit` games (100 by default), after the game `after` names'),
  next: z.string().nullable().describe('the `after` of the next page; null on the last page'),
});

export { TOURNAMENT_EXPORT_FORMAT, TournamentExportHeader } from '../../domain/verify/tournamentHeader';

/** 201 of POST /games/{id}/tokens/{role}: the new token, shown once; the old one no longer works. */
export const TokenReissued = z.object({
  gameId: z.string(),
  role: z.string(),
  token: z.string(),
  version: z.int(),
  commit: CommitShape.describe('the commit that records the change (it holds no token)'),
});

/** 200 of DELETE /games/{id}/tokens/{role}: the role's token no longer works. */
export const TokenRevoked = z.object({
  gameId: z.string(),
  role: z.string(),
  version: z.int(),
  commit: CommitShape,
});
