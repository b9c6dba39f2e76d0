import type { Commit } from '../../domain/fairness/hashChain';
import type { GameState } from '../../domain/game/gameState';
import { textLines } from '../../domain/game/textLine';

/** One commit as the notification channels see it (docs/notifications.md "Payloads"). */
export interface Notice {
  gameId: string;
  gameTitle: string;
  seq: number;
  /** `<gameId>/<seq>`: what deliveries are idempotent by. */
  commitId: string;
  recordedAt: string;
  actor: string;
  type: string;
  /** Its text lines (http-api.md "Text for chat logs"). */
  lines: string[];
  /** The purposes its rolls state, in order. */
  purposes: string[];
  /** Whose move it is after it, in words ("player2 to move"); empty when the ruleset does not say. */
  turn: string;
  toMove: string | null;
  timelineUrl: string;
  voided?: boolean;
}

export const toMoveOf = (state: GameState): string | null => state.clock.toMove;

function purposesOf(commit: Commit): string[] {
  return commit.events.flatMap((event) => (typeof event.data?.purpose === 'string' ? [event.data.purpose] : []));
}

/** The link to a game's timeline, without any token: each reader opens it with their own. */
export const timelineUrlOf = (publicUrl: string, gameId: string) => `${publicUrl.replace(/\/+$/, '')}/#/games/${encodeURIComponent(gameId)}`;

/** One commit's notice: `after`, the game just after it; `latest`, the game now (which tells whether it was voided since); `previous`, the commit before it. */
export function noticeOf(commit: Commit, after: { title: string; toMove: string | null }, latest: GameState, previous: Commit | undefined, publicUrl: string): Notice {
  return {
    gameId: commit.gameId,
    gameTitle: after.title,
    seq: commit.seq,
    commitId: `${commit.gameId}/${commit.seq}`,
    recordedAt: commit.recordedAt,
    actor: commit.actor,
    type: commit.command.type,
    lines: textLines(latest, commit, previous),
    purposes: purposesOf(commit),
    turn: after.toMove ? `${after.toMove} to move` : '',
    toMove: after.toMove,
    timelineUrl: timelineUrlOf(publicUrl, commit.gameId),
    ...(latest.voided?.has(commit.seq) ? { voided: true } : {}),
  };
}
