import type { Commit } from '../fairness/hashChain';
import type { Command, DomainEvent } from '../ruleset';
import { summarizeCommit } from './decideGame';
import { escapeLine } from './escapeLine';
import { gameCommands } from './gameCommands';
import type { GameState } from './gameState';

export { escapeLine } from './escapeLine';

/**
 * The text lines of a commit (http-api.md "Text for chat logs"): `#<seq> <actor> <type> <summary> [<hash8>]`,
 * each always one line; one per commit, or one per result of a commit that records several
 * (a Roll of several labelled rolls), each in the full form. A commit the game's state knows
 * as voided reads `(voided by #<n>)` after its summary. A beacon game's reveal reads best
 * given the pending commit it resolves (`pending`, the commit before it).
 */
export function textLines(state: GameState | undefined, commit: Commit, pending?: Commit): string[] {
  const revealed = commit.command.type === 'RevealBeacon' && pending?.seq === commit.seq - 1 ? pending.command : undefined;
  const mark = state?.voided?.get(commit.seq);
  const voided = mark ? ` (voided by #${mark.by})` : '';
  return commitSummaries(state, commit.command, commit.events, revealed).map((summary) =>
    escapeLine(`#${commit.seq} ${commit.actor} ${commit.command.type}${summary ? ` ${summary}` : ''}${voided} [${commit.hash.slice(0, 8)}]`),
  );
}

/** A commit's text lines as one text, a line feed between two (textLines). */
export function textLine(state: GameState | undefined, commit: Commit, pending?: Commit): string {
  return textLines(state, commit, pending).join('\n');
}

/**
 * The `<summary>` of each text line of a commit: one, or one per result of a ruleset's
 * commit that records several (a Roll of several labelled rolls). Here rather than beside
 * summarizeCommit: the standalone verifier bundles decideGame.ts and never writes a line.
 */
function commitSummaries(state: GameState | undefined, command: Command, events: readonly DomainEvent[], revealed?: Command): string[] {
  const first = events[0];
  if (command.type === 'Void') return [`#${String(first?.data.seq ?? '')}: ${JSON.stringify(String(first?.data.reason ?? ''))}`];
  if (command.type === 'Ruling') {
    const concerning = Array.isArray(first?.data.concerning) ? (first.data.concerning as unknown[]) : [];
    const about = concerning.length ? ` concerning ${concerning.map((seq) => `#${String(seq)}`).join(', ')}` : '';
    return [`${JSON.stringify(String(first?.data.text ?? ''))}${about}`];
  }
  const ruleset = state?.ruleset;
  const rulesCommand = command.type === 'RevealBeacon' ? revealed : Object.hasOwn(gameCommands, command.type) ? undefined : command;
  const lines = ruleset && rulesCommand && first?.type !== 'BeaconRollRefused' ? ruleset.summaryLines?.(rulesCommand, events) : undefined;
  if (!lines || lines.length < 2) return [summarizeCommit(state, command, events, revealed)];
  if (command.type !== 'RevealBeacon') return lines;
  const { pending, round } = command.payload as { pending: number; round: number };
  return lines.map((line) => `drand round ${round} for #${pending}: ${line}`);
}
