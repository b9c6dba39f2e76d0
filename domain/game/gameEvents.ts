import * as z from 'zod';
import { beaconChainSchema } from '../beacon/chain';
import type { Ruleset } from '../ruleset';

/**
 * The `data` of the events every game records, whatever its ruleset (fairness-v1 §5, §6,
 * and the token commits of POST and DELETE /games/{id}/tokens/{role}), by event type.
 * Published in the OpenAPI document; test/domain/eventSchemas.test.ts checks that the
 * events the code emits parse against them.
 */
export const gameEvents = {
  GameCreated: z.strictObject({
    ruleset: z.string(),
    sides: z.array(z.string()).describe('the sides of the game, in order'),
    options: z.record(z.string(), z.unknown()).describe("the ruleset's options with their defaults applied"),
    commitment: z.string().describe('hex SHA-256 of the server seed, revealed by GameSealed'),
    tournamentId: z.string().optional().describe('the tournament the game was created in (trust.md §7); absent for a game of no tournament'),
    beacon: beaconChainSchema.optional().describe('a beacon game (beacon.md §1): the drand chain whose rounds its dice also depend on; absent in other games'),
  }),
  BeaconRollPending: z.strictObject({
    round: z.number().int().min(1).describe('the drand round the roll waits for: the first at least one period after the commit was recorded'),
    roundAt: z.string().describe('ISO-8601 time at which that round is published'),
  }),
  BeaconRollRefused: z.strictObject({
    code: z.string(),
    message: z.string().describe('why the rules refused the pending command at its reveal (beacon.md §4: never expected)'),
  }),
  EntropyContributed: z.strictObject({
    by: z.string().describe('the role that contributed'),
    entropy: z.string(),
  }),
  GameSealed: z.strictObject({
    serverSeed: z.string().describe('hex; its SHA-256 is the commitment of GameCreated'),
  }),
  CommitVoided: z.strictObject({
    seq: z.int().describe('the commit voided: it stays in the chain, its dice kept, and no longer counts'),
    reason: z.string(),
  }),
  RulingRecorded: z.strictObject({
    text: z.string(),
    concerning: z.array(z.int()).describe('the commits the ruling is about'),
  }),
  TokenReissued: z.strictObject({
    role: z.string().describe('"organizer" or a side'),
    tokenId: z.string().describe('the public name of the new token; the token itself is never recorded'),
  }),
  TokenRevoked: z.strictObject({
    role: z.string().describe('the side whose token no longer works'),
  }),
} as const satisfies Record<string, z.ZodType>;

/** The `data` schema of an event type in a game of this ruleset: the game's own events, then the ruleset's. */
export function eventDataSchema(ruleset: Pick<Ruleset, 'events'>, type: string): z.ZodType | undefined {
  if (Object.hasOwn(gameEvents, type)) return gameEvents[type as keyof typeof gameEvents];
  if (ruleset.events && Object.hasOwn(ruleset.events, type)) return ruleset.events[type];
  return undefined;
}
