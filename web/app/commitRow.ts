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

export interface VoidedBy {
  seq: number;
  reason: string;
}

/** The commit a Void commit voids, from its CommitVoided event. */
export function voidOf(commit: Commit): { seq: number; by: VoidedBy } | undefined {
  const event = commit.events.find((e) => e.type === 'CommitVoided');
  const seq = event?.data?.seq;
  if (typeof seq !== 'number') return undefined;
  return { seq, by: { seq: commit.seq, reason: typeof event?.data?.reason === 'string' ? event.data.reason : '' } };
}

/**
 * Marks a row voided: struck through, and said in words (not by the strike alone). The commit
 * stays in the chain with its dice; what it rolled no longer counts.
 */
export function markVoided(row: HTMLTableRowElement, by: VoidedBy): void {
  if (row.dataset.voidedBy === String(by.seq)) return;
  row.classList.add('voided');
  row.dataset.voidedBy = String(by.seq);
  row.querySelector('td.line')?.append(' ', el('span', { class: 'voided-note' }, `voided by #${by.seq}: ${by.reason}`));
}

/**
 * What came of the commit, as its ruleset says it in a few words ("C", "hit, hit, flag", "total 9"); '' when nothing was resolved.
 * A beacon game's reveal is read as the result of the command it resolves (`revealed`, the pending commit's).
 */
export function resultOf(rulesetId: string, commit: Commit, revealed?: Commit['command']): string {
  return displayedResultText(rulesetId, revealed ?? commit.command, commit.events.map((e) => ({ type: e.type, data: e.data ?? {} })));
}

/** The drand round a beacon game's pending commit waits for (docs/beacon.md), when it is one. */
export function pendingRoundOf(commit: Commit): { round: number; roundAt: string } | undefined {
  const event = commit.events[0];
  if (event?.type !== 'BeaconRollPending' || typeof event.data?.round !== 'number' || typeof event.data.roundAt !== 'string') return undefined;
  return { round: event.data.round, roundAt: event.data.roundAt };
}

/** A time of day in the reader's clock, hh:mm:ss; the text given when it is not a date. */
export function clockTime(iso: string): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : time.toLocaleTimeString('en-GB');
}

/** The commit's date and time in the reader's locale ("27 Nov 2026, 14:05:09"); the recorded text when it is not a date. */
export function whenText(recordedAt: string): string {
  const time = new Date(recordedAt);
  return Number.isNaN(time.getTime()) ? recordedAt : time.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

export function commitRow(rulesetId: string, commit: Commit, line: string | undefined, revealed?: Commit['command']): HTMLTableRowElement {
  const waits = pendingRoundOf(commit);
  // The server's line names the round's time in UTC ISO; the reader's clock reads it better.
  if (waits && line) line = line.replace(`(${waits.roundAt})`, `(due ${clockTime(waits.roundAt)})`);
  const row = el(
    'tr',
    { 'data-seq': commit.seq, 'data-actor': commit.actor, 'data-type': commit.command.type, class: waits ? 'pending-roll' : undefined, 'data-round': waits?.round },
    el('th', { scope: 'row', class: 'seq' }, `#${commit.seq}`),
    el('td', { class: 'actor' }, commit.actor),
    el('td', { class: 'time' }, el('time', { datetime: commit.recordedAt, title: commit.recordedAt }, whenText(commit.recordedAt))),
    el('td', { class: 'line' }, el('span', { class: 'line-text' }, line ?? `#${commit.seq} ${commit.actor} ${commit.command.type}`)),
    el('td', { class: 'dice-cell' }, diceView(commit.dice)),
    el('td', { class: 'result' }, waits ? `waits for drand round ${waits.round}` : resultOf(rulesetId, commit, revealed)),
  );
  return row;
}
