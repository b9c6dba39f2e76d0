import * as z from 'zod';
import { playerText } from '../playerText';
import type { CommandSpec } from '../ruleset';
import { TimeControl } from './clock';

/** Commands every game accepts, whatever its ruleset (fairness-v1 §2, §6). */
export const ContributeEntropy = z.strictObject({
  entropy: z.string().min(1).max(128).describe('any text; it is mixed into the game key'),
});

export const Seal = z.strictObject({});

/** The public name of an issued token; the token itself never enters a commit. */
export const TokenId = z.string().regex(/^k-[0-9a-z]{1,10}$/, 'a token id is k- and 1 to 10 lowercase letters or digits');

/** A side's name, or "organizer". */
const TokenRole = z.string().min(1).max(64);

export const ReissueToken = z.strictObject({ role: TokenRole, tokenId: TokenId });
export const RevokeToken = z.strictObject({ role: TokenRole });

/** beacon.md §2.3: the server's reveal of a pending roll, with the drand beacon it waited for. */
export const RevealBeacon = z.strictObject({
  pending: z.number().int().min(2).describe('the seq of the pending commit'),
  round: z.number().int().min(1),
  signature: z.string().regex(/^[0-9a-f]{96}$/, 'a drand signature is 48 bytes in lowercase hex'),
});

/** The organizer takes back one commit (docs/voids-and-rulings.md): it stays in the chain, its dice kept, marked voided. */
export const Void = z.strictObject({
  seq: z.int().min(2).describe('the commit to void'),
  reason: playerText(500).describe('why, in the words the players will read'),
});

export const MAX_RULING_CONCERNS = 50;

/** The organizer records a decision in the game's record (docs/voids-and-rulings.md). */
export const Ruling = z.strictObject({
  text: playerText(2000).describe('the decision, as the players will read it'),
  concerning: z
    .array(z.int().min(1))
    .max(MAX_RULING_CONCERNS)
    .refine((seqs) => new Set(seqs).size === seqs.length, 'each commit once')
    .describe(`the commits it is about (0 to ${MAX_RULING_CONCERNS}), each once`),
});

/** The actor of a reveal commit: no role of the game. */
export const SERVER_ACTOR = 'server';

/** The commandId of the reveal of pending commit `seq`: a "/" that no client's commandId may hold. */
export const revealCommandId = (pendingSeq: number): string => `beacon/${pendingSeq}`;

/** Commands the service builds itself (POST and DELETE /games/{id}/tokens/{role}): never accepted at /commands. */
export const SERVICE_COMMANDS: ReadonlySet<string> = new Set(['ReissueToken', 'RevokeToken', 'RevealBeacon']);

export const gameCommands: Record<string, CommandSpec> = {
  ContributeEntropy: {
    schema: ContributeEntropy,
    who: { sides: 'all', organizer: true },
    description: 'Add entropy to the game key; only before the first die is rolled.',
  },
  Seal: {
    schema: Seal,
    who: { sides: 'none', organizer: true },
    description: 'End the game and reveal its server seed; nothing can follow.',
  },
  Void: {
    schema: Void,
    who: { sides: 'none', organizer: true },
    description: 'Void one commit: it stays recorded, marked voided, and no longer counts (docs/voids-and-rulings.md).',
  },
  Ruling: {
    schema: Ruling,
    who: { sides: 'none', organizer: true },
    description: "Record a director's ruling about the commits it names.",
  },
  ReissueToken: {
    schema: ReissueToken,
    who: { sides: 'none', organizer: true },
    description: "Replace a role's bearer token; the old one stops working. Sent by POST /games/{id}/tokens/{role}, which shows the new token once.",
  },
  RevokeToken: {
    schema: RevokeToken,
    who: { sides: 'none', organizer: true },
    description: "Withdraw a side's bearer token until it is reissued. Sent by DELETE /games/{id}/tokens/{role}.",
  },
  RevealBeacon: {
    schema: RevealBeacon,
    who: { sides: 'none', organizer: false },
    description: 'In a beacon game, the server resolves a pending roll with the drand round it waited for (beacon.md §2.3). Sent by the server alone.',
  },
};

export const CreateGameBody = z.strictObject({
  ruleset: z.string().min(1).max(64),
  title: playerText(200).optional().describe('shown to players; one line of printable text'),
  options: z.record(z.string(), z.unknown()).optional(),
  public: z.boolean().optional().describe('anyone may read the game without a token'),
  randomness: z
    .strictObject({ beacon: z.string().min(1).max(32).describe('a drand chain by name: "quicknet", or one the operator configured') })
    .optional()
    .describe("a beacon game (docs/beacon.md): each roll also waits for a drand round published after the server accepted the command, so nobody, the server's operator included, can know a die in advance"),
  publicStats: z.boolean().optional().describe("false keeps the game's dice out of the public statistics (GET /stats); counted by default once sealed"),
  timeControl: TimeControl.optional().describe("limits on the time each side takes (docs/clocks.md); a game created with a tournament's token has the tournament's unless it sets its own"),
});
export type CreateGameBody = z.infer<typeof CreateGameBody>;
