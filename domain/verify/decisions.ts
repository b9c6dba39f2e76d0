import type { Commit } from '../fairness/hashChain';

export interface VoidedCommit {
  seq: number;
  /** The Void's seq. */
  by: number;
  reason: string;
}

export interface RecordedRuling {
  seq: number;
  text: string;
  concerning: number[];
}

/**
 * The organizer's voids and rulings among the first `replayed` commits: those the rules
 * replayed as recorded, so each was checked as the rules decide it (a commit's `seq` is its
 * position, as replayRules labels it).
 */
export function decisionsOf(commits: readonly Commit[], replayed: number): { voided: VoidedCommit[]; rulings: RecordedRuling[] } {
  const voided: VoidedCommit[] = [];
  const rulings: RecordedRuling[] = [];
  commits.slice(0, replayed).forEach((commit, index) => {
    for (const event of commit.events) {
      if (event.type === 'CommitVoided') voided.push({ seq: Number(event.data.seq), by: index + 1, reason: String(event.data.reason) });
      if (event.type === 'RulingRecorded') {
        const concerning = Array.isArray(event.data.concerning) ? event.data.concerning.map(Number) : [];
        rulings.push({ seq: index + 1, text: String(event.data.text), concerning });
      }
    }
  });
  return { voided, rulings };
}
