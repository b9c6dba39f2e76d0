import * as z from 'zod';

const Die = z.strictObject({ sides: z.int(), value: z.int() });

/** The shape of a fairness-v1 §5 commit record, checked before anything reads it. */
export const CommitShape = z.strictObject({
  gameId: z.string(),
  seq: z.int(),
  commandId: z.string(),
  actor: z.string(),
  as: z.literal('organizer').optional(),
  command: z.strictObject({ type: z.string(), payload: z.unknown() }),
  events: z.array(z.strictObject({ type: z.string(), data: z.record(z.string(), z.unknown()) })),
  dice: z.array(Die),
  // The server writes toISOString(): anything else is no time of a commit (and may carry terminal escapes).
  recordedAt: z.iso.datetime(),
  kid: z.string(),
  prevHash: z.string(),
  hash: z.string(),
  signature: z.string(),
});

export const BundleShape = z.object({
  gameId: z.string(),
  ruleset: z.string(),
  commitment: z.string(),
  commits: z.array(z.unknown()).min(1),
  keys: z.object({ keys: z.array(z.object({ kty: z.string(), crv: z.string(), x: z.string(), kid: z.string() })) }),
  serverSeed: z.string().optional(),
});

export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return `${issue.path.join('.') || 'record'}: ${issue.message}`;
}
