import * as z from 'zod';

export { EXIT, type ExitCode } from './exitCodes';
import { RecordedClockShape } from './timeUsed';
import { EXIT } from './exitCodes';

export const VerificationFailureSchema = z.strictObject({
  seq: z.int().min(0).describe("the commit's position from 1; 0 for the export as a whole (its shape, head, keys or key log)"),
  check: z.string().describe('which check: structure, sequence, gameId, prevHash, hash, signature, sealed, creation, commitment, ruleset, serverSeed, dice, entropy, rules, beacon, keys, keyLog, head, trust, retired, tournament, input'),
  reason: z.string().describe('in words'),
});

/** The one object `arbiter verify --json` prints (trust.md §5). */
export const VerifierReportSchema = z.strictObject({
  ok: z.boolean().describe('exitCode is 0'),
  exitCode: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  gameId: z.string().nullable().describe('null when the input is not an export'),
  ruleset: z.string().nullable(),
  commits: z.int().min(0).describe('commits in the export'),
  dice: z.int().min(0).describe('dice re-derived from the revealed seed (0 until sealed)'),
  rulesReplayed: z.int().min(0).describe('commits replayed through the ruleset as recorded, from the first'),
  sealed: z.boolean(),
  signers: z
    .array(z.strictObject({ fingerprint: z.string(), trusted: z.boolean() }))
    .describe('every key that signed a commit or the head, in order of first use'),
  head: z.strictObject({ seq: z.int(), at: z.string() }).nullable().describe('the signed head, null when the export has none'),
  failures: z.array(VerificationFailureSchema),
  voided: z
    .array(z.strictObject({ seq: z.int(), by: z.int().describe("the Void's seq"), reason: z.string() }))
    .optional()
    .describe('commits the organizer voided (docs/voids-and-rulings.md), among those the rules replayed; absent when none'),
  rulings: z
    .array(z.strictObject({ seq: z.int(), text: z.string(), concerning: z.array(z.int()) }))
    .optional()
    .describe("the organizer's rulings, among the commits the rules replayed; absent when none"),
  beacons: z
    .strictObject({ checked: z.int().min(0).describe('distinct drand rounds whose BLS signature was checked'), chain: z.string().describe('the drand chain the game was created with') })
    .optional()
    .describe('beacon games only (docs/beacon.md)'),
  clock: RecordedClockShape.optional().describe("whose move it is and the time each side used, re-derived from the commits' signed recordedAt (docs/clocks.md); absent when the rules did not replay to the end"),
});
export type VerifierReport = z.infer<typeof VerifierReportSchema>;

/** The report of an input that could not be used at all (exit code 2). */
export function unusableInputReport(reason: string): VerifierReport {
  return {
    ok: false,
    exitCode: EXIT.unusable,
    gameId: null,
    ruleset: null,
    commits: 0,
    dice: 0,
    rulesReplayed: 0,
    sealed: false,
    signers: [],
    head: null,
    failures: [{ seq: 0, check: 'input', reason }],
  };
}
