// One row of the timeline per commit.
import { el } from './dom';
import { diceView, type Die } from './diceView';

export interface Commit {
  seq: number;
  actor: string;
  command: { type: string; payload: unknown };
  events: { type: string; data?: Record<string, unknown> }[];
  dice: Die[];
  recordedAt: string;
  hash: string;
  /** The key that signed it (GET /keys names its fingerprint). */
  kid?: string;
}

/** What came of the commit: a total, a result, or else the names of its events. */
export function resultOf(commit: Commit): string {
  const parts = commit.events.map((e) => {
    const d = e.data ?? {};
    for (const key of ['result', 'outcome', 'total']) {
      const v = d[key];
      if (typeof v === 'string' || typeof v === 'number') return key === 'total' ? `total ${v}` : String(v);
    }
    return e.type;
  });
  return parts.join(', ');
}

export function commitRow(commit: Commit, line: string | undefined): HTMLTableRowElement {
  const time = new Date(commit.recordedAt);
  return el(
    'tr',
    { 'data-seq': commit.seq, 'data-actor': commit.actor, 'data-type': commit.command.type },
    el('th', { scope: 'row', class: 'seq' }, `#${commit.seq}`),
    el('td', { class: 'actor' }, commit.actor),
    el('td', { class: 'time' }, el('time', { datetime: commit.recordedAt, title: commit.recordedAt }, Number.isNaN(time.getTime()) ? commit.recordedAt : time.toLocaleTimeString())),
    el('td', { class: 'line' }, line ?? `#${commit.seq} ${commit.actor} ${commit.command.type}`),
    el('td', { class: 'dice-cell' }, diceView(commit.dice)),
    el('td', { class: 'result' }, resultOf(commit)),
  );
}
