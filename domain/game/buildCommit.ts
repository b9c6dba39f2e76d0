import type { Die } from '../dice';
import { commitHash, type Commit, type RecordedCommand, type RecordedEvent, type UnsignedCommit } from '../fairness/hashChain';

export interface CommitDraft {
  gameId: string;
  seq: number;
  prevHash: string;
  commandId: string;
  actor: string;
  viaOrganizer: boolean;
  command: RecordedCommand;
  events: RecordedEvent[];
  dice: readonly Die[];
  recordedAt: string;
  kid: string;
}

/** The record of fairness-v1 §5 with its hash; `sign` turns the hash into the signature. */
export function buildCommit(draft: CommitDraft, sign: (hashHex: string) => string): Commit {
  const { unsigned, hash } = hashedCommit(draft);
  return { ...unsigned, hash, signature: sign(hash) };
}

/** The record of fairness-v1 §5 and its hash, before it is signed (for a signer that answers later). */
export function hashedCommit(draft: CommitDraft): { unsigned: UnsignedCommit; hash: string } {
  const unsigned: UnsignedCommit = {
    gameId: draft.gameId,
    seq: draft.seq,
    commandId: draft.commandId,
    actor: draft.actor,
    ...(draft.viaOrganizer ? { as: 'organizer' as const } : {}),
    command: draft.command,
    events: draft.events,
    dice: draft.dice.map(({ sides, value }) => ({ sides, value })),
    recordedAt: draft.recordedAt,
    kid: draft.kid,
    prevHash: draft.prevHash,
  };
  return { unsigned, hash: commitHash(unsigned) };
}
