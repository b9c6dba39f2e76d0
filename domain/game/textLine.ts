import type { Commit } from '../fairness/hashChain';
import { summarizeCommit } from './decideGame';
import { escapeLine } from './escapeLine';
import type { GameState } from './gameState';

export { escapeLine } from './escapeLine';

/**
 * One text line per commit (http-api.md "Text for chat logs"): `#<seq> <actor> <type> <summary> [<hash8>]`, always one line.
 * A beacon game's reveal reads best given the pending commit it resolves (`pending`, the commit before it).
 */
export function textLine(state: GameState | undefined, commit: Commit, pending?: Commit): string {
  const revealed = commit.command.type === 'RevealBeacon' && pending?.seq === commit.seq - 1 ? pending.command : undefined;
  const summary = summarizeCommit(state, commit.command, commit.events, revealed);
  return escapeLine(`#${commit.seq} ${commit.actor} ${commit.command.type}${summary ? ` ${summary}` : ''} [${commit.hash.slice(0, 8)}]`);
}
