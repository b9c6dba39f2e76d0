/** A reveal is late once its round is this far past: max(5 periods, 15 s) (issue 32: "older than a few periods"). */
export const lateAfterMs = (period: number): number => Math.max(5 * period, 15) * 1000;

/** Whether a pending commit waiting for a round published at `roundAt` is late at `nowMs`. */
export const revealLate = (period: number, roundAt: string, nowMs: number): boolean => nowMs > Date.parse(roundAt) + lateAfterMs(period);
