/** The limits of a time control, in seconds (clock.ts's TimeControl, without zod: the web app reads it too). */
export interface TimeLimits {
  perMoveSeconds?: number;
  totalSeconds?: number;
}

/** Which limit a side to move is past: its move (from when it came to move) first, then its total; none. */
export function pastLimit(control: TimeLimits | undefined, moveMs: number, totalMs: number): 'move' | 'total' | undefined {
  if (control?.perMoveSeconds !== undefined && moveMs > control.perMoveSeconds * 1000) return 'move';
  if (control?.totalSeconds !== undefined && totalMs > control.totalSeconds * 1000) return 'total';
  return undefined;
}
