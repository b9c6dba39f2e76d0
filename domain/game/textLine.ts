import type { Commit } from '../fairness/hashChain';
import { summarizeCommit } from './decideGame';
import { escapeLine } from './escapeLine';
import type { GameState } from './gameState';

export { escapeLine } from './escapeLine';

/** One text line per commit (http-api.md "Text for chat logs"): `#<seq> <actor> <type> <summary> [<hash8>]`, always one line. */
export function textLine(state: GameState | undefined, commit: Commit): string {
  const summary = summarizeCommit(state, commit.command, commit.events);
  return escapeLine(`#${commit.seq} ${commit.actor} ${commit.command.type}${summary ? ` ${summary}` : ''} [${commit.hash.slice(0, 8)}]`);
}
