import { evolveGame, type GameState } from '../../domain/game/gameState';
import { stillActs } from '../application/credentials';
import type { EventStore } from '../ports/eventStore';
import type { SubscriptionRecord } from '../ports/subscriptionStore';
import { noticesOf, toMoveOf, type Notice } from './notice';

/** A game's commits after a seq, as notices, with whose move it was before the first. */
export interface NoticePage {
  notices: Notice[];
  /** The side to move after commit `after` (null when the ruleset does not say). */
  toMoveBefore: string | null;
  gameTitle: string;
  /** Whether the token the subscription was made with still acts on the game's latest state (not revoked, not reissued). */
  granted: (subscription: Pick<SubscriptionRecord, 'owner' | 'grantedBy'>) => boolean;
}

/** A subscription's grant on a game's state; one made before grants were kept is ended. */
export const grantActs = ({ owner, grantedBy }: Pick<SubscriptionRecord, 'owner' | 'grantedBy'>, state: GameState) =>
  grantedBy !== undefined && stillActs({ role: owner, by: grantedBy }, state);

export interface NoticeSource {
  /** undefined: no such game (deleted). */
  read(gameId: string, after: number, limit: number): Promise<NoticePage | undefined>;
  /** The tournament the game belongs to, read without folding the game. */
  tournamentOf(gameId: string): Promise<string | undefined>;
}

/**
 * Notices read from the commit log: the game folded from its first commit, so that each
 * notice tells the turn after its own commit and the voids recorded since.
 */
export function storeNoticeSource(store: EventStore, publicUrl: () => string): NoticeSource {
  return {
    async tournamentOf(gameId) {
      return (await store.readSecrets(gameId))?.tournamentId;
    },
    async read(gameId, after, limit) {
      const commits = await store.read(gameId, 0);
      if (commits.length === 0) return undefined;
      let before: GameState | undefined;
      let latest: GameState | undefined;
      for (const commit of commits) {
        latest = evolveGame(latest, commit);
        if (commit.seq <= after) before = latest;
      }
      const page = commits.filter((commit) => commit.seq > after).slice(0, limit);
      return {
        notices: noticesOf(before, page, latest, publicUrl()),
        toMoveBefore: before ? toMoveOf(before) : null,
        gameTitle: latest!.title,
        granted: (subscription) => grantActs(subscription, latest!),
      };
    },
  };
}
