import * as z from 'zod';
import { signStatement, signStatementLater, type SignHash } from './signedStatement';

/** trust.md §4: the server's signed word on where a game ends. */
export const GameHeadShape = z.object({
  type: z.literal('GameHead'),
  gameId: z.string(),
  /** The last commit's seq. */
  seq: z.int(),
  /** The last commit's hash. */
  lastHash: z.string(),
  sealed: z.boolean(),
  /** ISO-8601, given by the caller. */
  at: z.string(),
  /** The signing key's kid. */
  kid: z.string(),
  hash: z.string(),
  signature: z.string(),
});
export type GameHead = z.infer<typeof GameHeadShape>;

export type GameHeadDraft = Omit<GameHead, 'type' | 'hash' | 'signature'>;

export function buildGameHead(draft: GameHeadDraft, sign: SignHash): GameHead {
  return signStatement(
    { type: 'GameHead' as const, gameId: draft.gameId, seq: draft.seq, lastHash: draft.lastHash, sealed: draft.sealed, at: draft.at, kid: draft.kid },
    sign,
  );
}

/** buildGameHead for a signer that answers later (a key held by a key service). */
export function signGameHead(draft: GameHeadDraft, sign: (hashHex: string) => Promise<string>): Promise<GameHead> {
  return signStatementLater(
    { type: 'GameHead' as const, gameId: draft.gameId, seq: draft.seq, lastHash: draft.lastHash, sealed: draft.sealed, at: draft.at, kid: draft.kid },
    sign,
  );
}
