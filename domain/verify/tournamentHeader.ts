import * as z from 'zod';
import { TournamentHeadShape } from '../trust/tournamentHead';

export const TOURNAMENT_EXPORT_FORMAT = 'arbiter-tournament-export/1';

/**
 * The first line of a tournament export (GET /tournaments/{id}/export, NDJSON): the lines
 * after it are the games' exports (fairness-v1 §7), one per line. The header itself is not
 * signed; its `tournamentHead` is (trust.md §7), and ties every game line to the tournament.
 */
export const TournamentExportHeader = z.object({
  format: z.literal(TOURNAMENT_EXPORT_FORMAT),
  tournamentId: z.string(),
  name: z.string(),
  exportedAt: z.string().describe("when the games were read: the tournament head's `at`"),
  games: z.int().min(0).describe('how many game lines follow'),
  tournamentHead: TournamentHeadShape.optional().describe('the signed list of every game of the tournament (trust.md §7); a file without one fails verification'),
  keys: z.object({ keys: z.array(z.unknown()) }).optional().describe('the public keys, as GET /keys lists them, to check the tournament head with'),
  keyLog: z.array(z.unknown()).optional().describe('the key log of trust.md §3'),
  page: z
    .object({
      after: z.string().nullable().describe('the game this page follows; null on the first page'),
      next: z.string().nullable().describe('the `after` of the next page; null on the last'),
    })
    .optional()
    .describe('present when the export was asked for a page: the file then holds only that run of the listed games'),
});
export type TournamentExportHeader = z.infer<typeof TournamentExportHeader>;

/** The header as a verifier reads it: a tournament head, keys or key log of the wrong shape fail their checks (exit 1), not the file. */
export const ReadHeader = TournamentExportHeader.extend({ tournamentHead: z.unknown().optional(), keys: z.unknown().optional(), keyLog: z.unknown().optional() });
export type ReadHeader = z.infer<typeof ReadHeader>;
