import type { Commit } from '../../domain/fairness/hashChain';
import { evolveGame, type GameState } from '../../domain/game/gameState';
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

/**
 * The notices of `commits` (consecutive, following `before`, the state after the commit
 * preceding the first). Each notice reads the state after its own commit; `latest`, the
 * game now, tells which were voided since.
 */
export function noticesOf(before: GameState | undefined, commits: readonly Commit[], latest: GameState | undefined, publicUrl: string): Notice[] {
  const notices: Notice[] = [];
  let state = before;
  let previous: Commit | undefined;
  const voided = latest?.voided;
  for (const commit of commits) {
    state = evolveGame(state, commit);
    const toMove = toMoveOf(state);
    notices.push({
      gameId: commit.gameId,
      gameTitle: state.title,
      seq: commit.seq,
      commitId: `${commit.gameId}/${commit.seq}`,
      recordedAt: commit.recordedAt,
      actor: commit.actor,
      type: commit.command.type,
      lines: textLines(latest ?? state, commit, previous),
      purposes: purposesOf(commit),
      turn: toMove ? `${toMove} to move` : '',
      toMove,
      timelineUrl: timelineUrlOf(publicUrl, commit.gameId),
      ...(voided?.has(commit.seq) ? { voided: true } : {}),
    });
    previous = commit;
  }
  return notices;
}
