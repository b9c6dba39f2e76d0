import * as z from 'zod';

/** trust.md §5 exit codes. */
export const EXIT = {
  /** Every check passed, everything is signed by trusted keys, and the game is sealed (or unsealed is allowed). */
  ok: 0,
  /** A check failed, including a signature by a key the trusted fingerprints do not reach. */
  failed: 1,
  /** The input or the arguments cannot be used. */
  unusable: 2,
  /** Consistent, but no trusted fingerprint is configured, or the game is not sealed yet. */
  inconclusive: 3,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export const VerificationFailureSchema = z.strictObject({
  seq: z.int().min(0).describe("the commit's position from 1; 0 for the export as a whole (its shape, head, keys or key log)"),
  check: z.string().describe('which check: structure, sequence, gameId, prevHash, hash, signature, sealed, creation, commitment, ruleset, serverSeed, dice, entropy, rules, keys, keyLog, head, trust, retired, tournament, input'),
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
