import { ClockViewShape } from '../../domain/game/clock';
import * as z from 'zod';
import { GameHeadShape } from '../../domain/trust/gameHead';
import { KeyRotationShape } from '../../domain/trust/keyRotation';
import { CommitShape } from '../../domain/verify/bundleShape';
import { ERROR_CODES } from './errorCatalogue';

/**
 * The shapes of what the HTTP routes answer, as zod: the OpenAPI document is generated
 * from them (openapi.ts), and test/http/openapiContract.test.ts parses real answers with
 * them. Request schemas are the ones the service validates with, where they live.
 */

export { ERROR_CODES, type ErrorCode } from './errorCatalogue';

export const ErrorShape = z.strictObject({
  error: z.strictObject({
    code: z.enum(ERROR_CODES),
    message: z.string().describe('for people: says what to change'),
    details: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('by code: issues [{ field, message, valid? }] (invalid_request: message follows the field, valid lists what it may be when that is a short list), valid (not_found of a ruleset or a role: the ones there are), needed (insufficient_dice), currentVersion (version_conflict), seq (command_id_reused), rule (rule_violation), maxBytes and, for a record too large, bytes (payload_too_large), lastCommandAt and afterDays (game_abandoned), perHour and retryAfterSeconds (creation_quota), retryAfterSeconds (long_poll_full)'),
  }),
});

export const HealthShape = z.strictObject({ ok: z.literal(true) });

const JsonSchemaObject = z.record(z.string(), z.unknown()).describe('a JSON Schema (draft 2020-12)');

export const CatalogueShape = z.strictObject({
  rulesets: z.array(
    z.strictObject({
      id: z.string(),
      title: z.string(),
      description: z.string(),
      sides: z.array(z.string()).describe('the sides with the default options'),
      sidesNote: z.string().optional().describe('how options rename the sides'),
      options: JsonSchemaObject,
      commands: z.array(
        z.strictObject({
          type: z.string(),
          description: z.string(),
          who: z.strictObject({
            sides: z.union([z.literal('all'), z.literal('none'), z.array(z.string())]),
            organizer: z.boolean(),
            text: z.string().describe('the same, in words'),
          }),
          payload: JsonSchemaObject,
          component: z.string().describe('the name of the payload schema in the OpenAPI document'),
        }),
      ),
      procedures: z.array(z.strictObject({ name: z.string(), description: z.string(), input: JsonSchemaObject })),
      state: JsonSchemaObject.describe('the schema of `state` in GET /games/{id}'),
    }),
  ),
});

export const DieShape = z.strictObject({ sides: z.int(), value: z.int() });

export const EvaluateResultShape = z.strictObject({
  result: z.unknown().describe("the procedure's result; its fields are the ruleset's (GET /rulesets)"),
  breakdown: z.unknown().describe('how the result was reached, step by step'),
  dice: z.array(DieShape).describe('the dice used, in draw order'),
});

export const TableValidationShape = z.union([
  z.strictObject({ valid: z.literal(true), id: z.string(), hash: z.string().describe('sha256: of the canonical JSON of the table, as games and text lines show it') }),
  z.strictObject({
    valid: z.literal(false),
    issues: z.array(z.strictObject({ path: z.string().describe('where, e.g. "cells[3][5]" or "rows[2]"'), message: z.string() })).describe('every problem found, each with its place'),
  }),
]);

export const GameCreatedShape = z.strictObject({
  gameId: z.string(),
  ruleset: z.string(),
  sides: z.array(z.string()),
  commitment: z.string().describe('hex SHA-256 of the server seed, revealed when the game is sealed'),
  version: z.literal(1),
  tokens: z
    .strictObject({ organizer: z.string(), players: z.record(z.string(), z.string()).describe('one bearer token per side, by side') })
    .describe('shown only this once: only their hashes are stored'),
  tournamentId: z.string().optional().describe('present when the game was created with a tournament token'),
});

/** A voided commit (docs/voids-and-rulings.md): it stays in the chain, signed as it was; the Void that took it back. */
export const VoidedCommitShape = z.strictObject({
  seq: z.int().describe('the voided commit'),
  voidedBy: z.strictObject({ seq: z.int().describe("the Void's seq"), reason: z.string() }),
});

export const GameViewShape = z.strictObject({
  gameId: z.string(),
  ruleset: z.string(),
  title: z.string().describe('empty when none was given'),
  sides: z.array(z.string()),
  version: z.int().describe('the seq of the last commit'),
  sealed: z.boolean(),
  commitment: z.string(),
  public: z.boolean(),
  entropy: z.strictObject({ contributions: z.int(), locked: z.boolean().describe('a die was rolled: no more entropy') }),
  state: z.unknown().describe("the ruleset's view of the game"),
  role: z.string().nullable().describe('who the token is: "organizer", a side or "spectator"; null for a public game read without one of its tokens'),
  clock: ClockViewShape.describe('whose move it is and the time each side used (docs/clocks.md); the same as GET /games/{id}/clock'),
  abandonedAt: z.string().nullable().describe('when the game is abandoned if it gets no command before (it then takes no more commands and is deleted); null when it never is: sealed, in a tournament, or on a deployment where games do not expire'),
  beacon: z
    .strictObject({
      chain: z.string(),
      chainHash: z.string(),
      pending: z
        .strictObject({
          seq: z.int().describe('the pending commit'),
          round: z.int().describe('the drand round it waits for'),
          roundAt: z.string().describe('when that round is published'),
          late: z.boolean().describe('the round is more than max(5 periods, 15 s) past and the reveal is not stored yet'),
        })
        .optional()
        .describe('while a roll waits for its beacon: the game takes no other command'),
    })
    .optional()
    .describe('a beacon game (docs/beacon.md): its drand chain; absent in other games'),
  voided: z.array(VoidedCommitShape).optional().describe('the commits the organizer voided, in the order voided; absent when none'),
  rulings: z.int().optional().describe("how many rulings the organizer recorded (each a Ruling commit); absent when none"),
});

export const CommandAcceptedShape = z.strictObject({ version: z.int(), commit: CommitShape });

/** 202 of a rolling command in a beacon game (beacon.md §2.1): its commit is pending. */
export const CommandPendingShape = z.strictObject({
  version: z.int(),
  commit: CommitShape,
  beacon: z.strictObject({ chain: z.string(), round: z.int(), roundAt: z.string() }).describe('the drand round the roll waits for, and when it is published'),
});

/** 200 of a retried pending command once revealed (beacon.md §2.3): the pending commit and its reveal. */
export const CommandRevealedShape = z.strictObject({ version: z.int(), commit: CommitShape, reveal: CommitShape.describe('the commit after it: the server\'s RevealBeacon, with the dice') });

export const EventsPageShape = z.strictObject({
  gameId: z.string(),
  version: z.int().describe("the game's version now; the ETag"),
  commits: z.array(CommitShape).describe('the commits with seq > after, in order'),
  voided: z.array(VoidedCommitShape).optional().describe('those of these commits that are voided now (the commits themselves stay as signed); absent when none'),
});

export const PublicKeyShape = z.strictObject({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: z.string(),
  kid: z.string(),
  use: z.literal('sig'),
  alg: z.literal('EdDSA'),
  fingerprint: z.string().describe('ed25519:<RFC 7638 thumbprint>, the value people pin'),
  status: z.enum(['current', 'retired']),
});

/** trust.md §2. */
export const KeysShape = z.strictObject({
  keys: z.array(PublicKeyShape),
  log: z.array(KeyRotationShape).describe('the key log: each statement signed by the key it retires'),
});

/** fairness-v1 §7, with trust.md §3 and §4. */
export const ExportBundleShape = z.strictObject({
  gameId: z.string(),
  ruleset: z.string(),
  commitment: z.string(),
  commits: z.array(CommitShape),
  keys: z.strictObject({ keys: z.array(PublicKeyShape) }),
  keyLog: z.array(KeyRotationShape).optional(),
  head: GameHeadShape.optional().describe('the signed head of the last commit in the file'),
  serverSeed: z.string().optional().describe('once the game is sealed'),
});

export const VerificationShape = z.strictObject({
  ok: z.boolean(),
  checkedCommits: z.int(),
  checkedDice: z.int(),
  sealed: z.boolean(),
  failures: z.array(z.strictObject({ seq: z.int().describe('0: the export as a whole'), check: z.string(), reason: z.string() })),
});

const DigestShape = z.union([z.literal('commit'), z.literal('turn'), z.strictObject({ everyMinutes: z.int() })]);

export const SubscriptionCreatedShape = z.strictObject({
  subscriptionId: z.string().describe('what DELETE /games/{id}/subscriptions/{subscriptionId} takes'),
  secret: z.string().optional().describe('webhook: the signing secret, whsec_…, shown only this once'),
  status: z.enum(['active', 'confirming']).describe('confirming: an e-mail address that has not followed its confirmation link yet'),
});

const SubscriptionListing = z.strictObject({
  subscriptionId: z.string(),
  kind: z.enum(['webhook', 'discord', 'slack', 'email']),
  owner: z.string().describe('the side, organizer, or tournament that made it'),
  target: z.string().describe("masked: a URL's origin, or a***@example.org"),
  digest: DigestShape,
  status: z.enum(['active', 'confirming']),
  createdAt: z.string(),
  deadLetters: z.array(z.strictObject({ seq: z.int(), at: z.string(), error: z.string() })).describe('commits that could not be told after every retry, the latest 50'),
});

export const TournamentSubscriptionListShape = z.strictObject({ tournamentId: z.string(), subscriptions: z.array(SubscriptionListing) });

export const SubscriptionListShape = z.strictObject({
  gameId: z.string(),
  subscriptions: z.array(SubscriptionListing),
});

export const ViewerListShape = z.strictObject({
  gameId: z.string(),
  viewers: z
    .array(
      z.strictObject({
        viewerId: z.string().describe('what DELETE /games/{id}/viewers/{viewerId} takes'),
        label: z.string().optional(),
        createdAt: z.string(),
        revoked: z.boolean(),
      }),
    )
    .describe('every spectator link of the game, revoked ones too, oldest first; never a token'),
});

export const ViewerCreatedShape = z.strictObject({
  viewerId: z.string(),
  token: z.string().describe('shown only this once'),
  label: z.string().optional(),
});
