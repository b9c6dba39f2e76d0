import * as z from 'zod';
import { clockView, ClockViewShape, type ClockedGame } from '../game/clock';
import { escapeLine } from '../game/escapeLine';

/** The clock as the commits record it: no "now", so nobody is overdue by the file alone. */
export const RecordedClockShape = ClockViewShape.omit({ overdue: true });
export type RecordedClock = z.infer<typeof RecordedClockShape>;

export function recordedClock(game: ClockedGame): RecordedClock {
  const { overdue: _none, ...clock } = clockView(game);
  return clock;
}

/** 3725.5 → "1 h 2 min 5.5 s": the exact seconds, in the units a player reads. */
export function duration(seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = Math.round((seconds % 60) * 1000) / 1000;
  return [hours ? `${hours} h` : '', hours || minutes ? `${minutes} min` : '', `${rest} s`].filter(Boolean).join(' ');
}

/** "red 2 min 0.25 s, blue 5 min 0 s; red to move since 2026-11-27T10:04:00.000Z": the verifier's line of time used. */
export function timeUsedText(clock: RecordedClock): string {
  const used = Object.entries(clock.sides).map(([side, { usedSeconds }]) => `${side} ${duration(usedSeconds)}`);
  const toMove = clock.toMove === null ? 'nobody to move' : `${clock.toMove} to move since ${clock.since}`;
  return escapeLine(`${used.join(', ')} (to the last commit, ${clock.asOf}); ${toMove}`);
}
