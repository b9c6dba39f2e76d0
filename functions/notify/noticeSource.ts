import { evolveGame, type GameState } from '../../domain/game/gameState';
import type { EventStore } from '../ports/eventStore';
import { noticesOf, toMoveOf, type Notice } from './notice';

/** A game's commits after a seq, as notices, with whose move it was before the first. */
export interface NoticePage {
  notices: Notice[];
  /** The side to move after commit `after` (null when the ruleset does not say). */
  toMoveBefore: string | null;
  gameTitle: string;
}

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
    // From the signed GameCreated (trust.md §7), never the game's secrets item, which the delivery function on AWS may not read.
    // A game created before GameCreated named its tournament reaches only its own subscriptions.
    async tournamentOf(gameId) {
      const [created] = await store.read(gameId, 0, 1);
      const data = created?.events[0]?.data as { tournamentId?: unknown } | undefined;
      return typeof data?.tournamentId === 'string' ? data.tournamentId : undefined;
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
      };
    },
  };
}
