// One row of the timeline per commit.
import { displayedResultText } from '../../domain/rulesets/resultTexts';
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

/** What came of the commit, as its ruleset says it in a few words ("C", "hit, hit, flag", "total 9"); '' when nothing was resolved. */
export function resultOf(rulesetId: string, commit: Commit): string {
  return displayedResultText(rulesetId, commit.command, commit.events.map((e) => ({ type: e.type, data: e.data ?? {} })));
}

/** The commit's date and time in the reader's locale ("27 Nov 2026, 14:05:09"); the recorded text when it is not a date. */
export function whenText(recordedAt: string): string {
  const time = new Date(recordedAt);
  return Number.isNaN(time.getTime()) ? recordedAt : time.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export function commitRow(rulesetId: string, commit: Commit, line: string | undefined): HTMLTableRowElement {
  return el(
    'tr',
    { 'data-seq': commit.seq, 'data-actor': commit.actor, 'data-type': commit.command.type },
    el('th', { scope: 'row', class: 'seq' }, `#${commit.seq}`),
    el('td', { class: 'actor' }, commit.actor),
    el('td', { class: 'time' }, el('time', { datetime: commit.recordedAt, title: commit.recordedAt }, whenText(commit.recordedAt))),
    el('td', { class: 'line' }, line ?? `#${commit.seq} ${commit.actor} ${commit.command.type}`),
    el('td', { class: 'dice-cell' }, diceView(commit.dice)),
    el('td', { class: 'result' }, resultOf(rulesetId, commit)),
  );
}
