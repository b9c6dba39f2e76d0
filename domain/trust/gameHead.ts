import * as z from 'zod';
import { signStatement, type SignHash } from './signedStatement';

/** trust.md §4: the server's signed word on where a game ends. */
export interface GameHead {
  type: 'GameHead';
  gameId: string;
  seq: number;
  lastHash: string;
  sealed: boolean;
  at: string;
  kid: string;
  hash: string;
  signature: string;
}

export const GameHeadShape = z.object({
  type: z.literal('GameHead'),
  gameId: z.string(),
  seq: z.int(),
  lastHash: z.string(),
  sealed: z.boolean(),
  at: z.string(),
  kid: z.string(),
  hash: z.string(),
  signature: z.string(),
});

export interface GameHeadDraft {
  gameId: string;
  /** The last commit's seq. */
  seq: number;
  /** The last commit's hash. */
  lastHash: string;
  sealed: boolean;
  /** ISO-8601, given by the caller. */
  at: string;
  /** The signing key's kid. */
  kid: string;
}

export function buildGameHead(draft: GameHeadDraft, sign: SignHash): GameHead {
  return signStatement(
    { type: 'GameHead' as const, gameId: draft.gameId, seq: draft.seq, lastHash: draft.lastHash, sealed: draft.sealed, at: draft.at, kid: draft.kid },
    sign,
  );
}
