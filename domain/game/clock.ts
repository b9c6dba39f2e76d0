import * as z from 'zod';
import { pastLimit } from './timeLimits';

const MIN_SECONDS = 60;
const MAX_SECONDS = 90 * 24 * 60 * 60;

const seconds = () =>
  z
    .int()
    .min(MIN_SECONDS, `must be at least ${MIN_SECONDS} seconds`)
    .max(MAX_SECONDS, `must be at most ${MAX_SECONDS} seconds (90 days)`)
    .optional();

/** A game's time control (docs/clocks.md): past either limit, the side to move is overdue. */
export const TimeControl = z
  .strictObject({
    perMoveSeconds: seconds().describe('the longest a side may take for one move, from when it came to move'),
    totalSeconds: seconds().describe('the most time a side may use in the whole game'),
  })
  .refine((control) => control.perMoveSeconds !== undefined || control.totalSeconds !== undefined, 'must set perMoveSeconds, totalSeconds or both')
  .describe('time limits per move and/or in total, in seconds (60 to 90 days); the clock counts from the signed recordedAt of the commits');
export type TimeControl = z.infer<typeof TimeControl>;

/**
 * Whose move it is and the time each side has used, as of the last commit, folded from the
 * commits' signed recordedAt: anyone holding the export can fold it again.
 */
export interface GameClock {
  toMove: string | null;
  /** recordedAt of the commit after which `toMove` came to move. */
  since: string;
  /** Milliseconds each side was to move, by side (side names are players' choice: a Map). */
  usedMs: ReadonlyMap<string, number>;
}

/** What the clock's figures are read from: a game's state has all of it. */
export interface ClockedGame {
  sides: readonly string[];
  clock: GameClock;
  timeControl?: TimeControl;
  lastRecordedAt: string;
  /** A beacon roll waiting for its round: the server's wait, so nobody is overdue meanwhile. */
  pending?: unknown;
}

export function startClock(sides: readonly string[], toMove: string | null, recordedAt: string): GameClock {
  return { toMove, since: recordedAt, usedMs: new Map(sides.map((side) => [side, 0])) };
}

/**
 * The clock after one more commit: the span since the previous commit is charged to the side
 * that was to move (unless `charge` is false: the previous commit left a beacon roll pending,
 * and the move starts again from this one), then `toMove` is the side to move after this commit.
 */
export function tickClock(clock: GameClock, previousAt: string, recordedAt: string, toMove: string | null, charge = true): GameClock {
  const span = charge ? Math.max(0, Date.parse(recordedAt) - Date.parse(previousAt)) : 0;
  const charged = clock.toMove;
  const usedMs = charged !== null && span > 0 && clock.usedMs.has(charged) ? new Map(clock.usedMs).set(charged, clock.usedMs.get(charged)! + span) : clock.usedMs;
  // After a server's wait the move starts again: its per-move time counts from the reveal.
  return { toMove, since: toMove === clock.toMove && charge ? clock.since : recordedAt, usedMs };
}

/** GET /games/{id}/clock, and `clock` in GET /games/{id}. */
export const ClockViewShape = z.strictObject({
  toMove: z.string().nullable().describe("whose move it is by the ruleset's turn model; null when the game waits on no side (and once sealed)"),
  since: z.string().describe('recordedAt of the commit after which `toMove` came to move'),
  asOf: z.string().describe("recordedAt of the last commit: each side's usedSeconds counts up to it; the side to move has also used the time since"),
  sides: z.record(z.string(), z.strictObject({ usedSeconds: z.number().describe('seconds the side was to move, in milliseconds exactly') })).describe('every side of the game, in order'),
  timeControl: TimeControl.optional().describe("the game's time control; absent when it has none"),
  overdue: z.array(z.string()).describe('the side to move, when it is past the time control now; empty otherwise'),
});
export type ClockView = z.infer<typeof ClockViewShape>;

/** GET /games/{id}/clock: the clock as of the last commit; `overdue` as of `nowIso` (none without it). */
export function clockView(game: ClockedGame, nowIso?: string): ClockView {
  return {
    toMove: game.clock.toMove,
    since: game.clock.since,
    asOf: game.lastRecordedAt,
    sides: Object.fromEntries(game.sides.map((side) => [side, { usedSeconds: (game.clock.usedMs.get(side) ?? 0) / 1000 }])),
    ...(game.timeControl ? { timeControl: game.timeControl } : {}),
    overdue: nowIso === undefined ? [] : overdueSides(game, nowIso),
  };
}

/** The side to move, when at `nowIso` its move or its total time is past the game's time control; none otherwise. */
export function overdueSides(game: ClockedGame, nowIso: string): string[] {
  const { toMove, since, usedMs } = game.clock;
  const control = game.timeControl;
  const now = Date.parse(nowIso);
  if (toMove === null || !control || Number.isNaN(now) || game.pending) return [];
  const moveMs = Math.max(0, now - Date.parse(since));
  const totalMs = (usedMs.get(toMove) ?? 0) + Math.max(0, now - Date.parse(game.lastRecordedAt));
  return pastLimit(control, moveMs, totalMs) ? [toMove] : [];
}

/** The time control commit 1 records, if it records a readable one (games created before time controls have none). */
export function recordedTimeControl(creation: unknown): TimeControl | undefined {
  const recorded = (creation as { timeControl?: unknown } | null | undefined)?.timeControl;
  if (recorded === undefined) return undefined;
  return TimeControl.safeParse(recorded).data;
}
