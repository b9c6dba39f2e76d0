import type { Commit } from '../fairness/hashChain';
import { commitSummaries } from './decideGame';
import { escapeLine } from './escapeLine';
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
