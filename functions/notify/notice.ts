// Stand-in for part C's functions/notify/notice.ts (the issue 33 team contract): the e-mail
// channel codes against these names; C's file replaces this one at merge.

/** One commit as the notification channels see it. */
export interface Notice {
  gameId: string;
  gameTitle: string;
  seq: number;
  /** `<gameId>/<seq>`: what deliveries are idempotent by. */
  commitId: string;
  recordedAt: string;
  actor: string;
  type: string;
  /** The commit's text lines (one per roll for a multi-roll). */
  lines: string[];
  purposes: string[];
  /** e.g. "turn 3, allied to move", or "player2 to move". */
  turn: string;
  toMove: string | null;
  timelineUrl: string;
  voided?: boolean;
}
