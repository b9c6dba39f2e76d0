import { recordedTimeControl, type ClockedGame } from '../../domain/game/clock';
import { evolveGame, type GameState } from '../../domain/game/gameState';
import { stillActs } from '../application/credentials';
import type { EventStore } from '../ports/eventStore';
import type { SubscriptionRecord } from '../ports/subscriptionStore';
import { noticesOf, timelineUrlOf, toMoveOf, type Notice } from './notice';

/** A game's commits after a seq, as notices, with whose move it was before the first. */
export interface NoticePage {
  notices: Notice[];
  /** The side to move after commit `after` (null when the ruleset does not say). */
  toMoveBefore: string | null;
  gameTitle: string;
  /** Whether the token the subscription was made with still acts on the game's latest state (not revoked, not reissued). */
  granted: (subscription: Pick<SubscriptionRecord, 'owner' | 'grantedBy'>) => boolean;
}

/** A game's clock as reminders read it (docs/clocks.md). */
export type GameClockInfo = ClockedGame & {
  gameId: string;
  gameTitle: string;
  version: number;
  timelineUrl: string;
};

/** A subscription's grant on a game's state; one made before grants were kept is ended. */
export const grantActs = ({ owner, grantedBy }: Pick<SubscriptionRecord, 'owner' | 'grantedBy'>, state: GameState) =>
  grantedBy !== undefined && stillActs({ role: owner, by: grantedBy }, state);

export interface NoticeSource {
  /** undefined: no such game (deleted). */
  read(gameId: string, after: number, limit: number): Promise<NoticePage | undefined>;
  /** The tournament the game belongs to, read without folding the game. */
  tournamentOf(gameId: string): Promise<string | undefined>;
  /** The game's clock now; undefined for no such game or one without a time control (never overdue). Without it the engine sends no reminders. */
  clockOf?(gameId: string): Promise<GameClockInfo | undefined>;
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
    async clockOf(gameId) {
      // A game without a time control is never overdue: its first commit says so, and the rest is not read.
      const [creation] = await store.read(gameId, 0, 1);
      if (!creation || !recordedTimeControl(creation.command.payload)) return undefined;
      let state: GameState | undefined;
      for (const commit of await store.read(gameId, 0)) state = evolveGame(state, commit);
      if (!state) return undefined;
      const { sides, clock, timeControl, lastRecordedAt, title, version, pending } = state;
      return {
        gameId,
        gameTitle: title,
        version,
        timelineUrl: timelineUrlOf(publicUrl(), gameId),
        sides,
        clock,
        lastRecordedAt,
        ...(timeControl ? { timeControl } : {}),
        // While a beacon roll waits for its round nobody is overdue (docs/clocks.md).
        ...(pending ? { pending } : {}),
      };
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
