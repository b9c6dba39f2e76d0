import type { Commit } from '../../domain/fairness/hashChain';
import { recordedTimeControl, type ClockedGame } from '../../domain/game/clock';
import type { GameState } from '../../domain/game/gameFold';
import { evolveGame, loadRulesetOf } from '../application/rulesetLoader';
import { stillActs } from '../application/credentials';
import type { EventStore } from '../ports/eventStore';
import type { SubscriptionRecord } from '../ports/subscriptionStore';
import { noticeOf, timelineUrlOf, toMoveOf, type Notice } from './notice';

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

/** A game folded once: its commits, who was to move after each, and the game now. */
interface FoldedGame {
  commits: Commit[];
  after: { title: string; toMove: string | null }[];
  latest: GameState;
}

/** Games kept folded between reads (least recently read dropped first). */
export const FOLDED_GAMES_KEPT = 32;

/**
 * Notices read from the commit log. Each game is folded once from its first commit and kept
 * (a few dozen games, least recently read dropped): a later read fetches only the commits
 * stored since, so that each notice tells the turn after its own commit and the voids
 * recorded since without the game being read again from its start.
 */
export function storeNoticeSource(store: EventStore, publicUrl: () => string): NoticeSource {
  const kept = new Map<string, FoldedGame>();

  async function folded(gameId: string): Promise<FoldedGame | undefined> {
    const known = kept.get(gameId);
    const fresh = await store.read(gameId, known?.latest.version ?? 0);
    // Another read of the same game may have folded some of these meanwhile: each commit is added once.
    const game = kept.get(gameId) ?? known;
    const commits = game?.commits ?? [];
    const after = game?.after ?? [];
    let latest = game?.latest;
    if (!latest) await loadRulesetOf(fresh[0]);
    for (const commit of fresh) {
      if (latest && commit.seq <= latest.version) continue;
      latest = evolveGame(latest, commit);
      commits.push(commit);
      after.push({ title: latest.title, toMove: toMoveOf(latest) });
    }
    if (!latest) return undefined;
    const result = { commits, after, latest };
    kept.delete(gameId);
    kept.set(gameId, result);
    if (kept.size > FOLDED_GAMES_KEPT) kept.delete(kept.keys().next().value!);
    return result;
  }

  return {
    // From the signed GameCreated (trust.md §7), never the game's secrets item, which the delivery function on AWS may not read.
    // A game created before GameCreated named its tournament reaches only its own subscriptions.
    async tournamentOf(gameId) {
      const [created] = await store.read(gameId, 0, 1);
      const data = created?.events[0]?.data as { tournamentId?: unknown } | undefined;
      return typeof data?.tournamentId === 'string' ? data.tournamentId : undefined;
    },
    async clockOf(gameId) {
      const game = await folded(gameId);
      // A game without a time control is never overdue: its first commit says so.
      if (!game || !recordedTimeControl(game.commits[0]!.command.payload)) return undefined;
      const { sides, clock, timeControl, lastRecordedAt, title, version, pending } = game.latest;
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
      const game = await folded(gameId);
      if (!game) return undefined;
      const { commits, latest } = game;
      const first = commits.findIndex((commit) => commit.seq > after);
      const start = first < 0 ? commits.length : first;
      const page = commits.slice(start, start + limit);
      return {
        notices: page.map((commit, i) => noticeOf(commit, game.after[start + i]!, latest, commits[start + i - 1], publicUrl())),
        toMoveBefore: start > 0 ? game.after[start - 1]!.toMove : null,
        gameTitle: latest.title,
        granted: (subscription) => grantActs(subscription, latest),
      };
    },
  };
}
