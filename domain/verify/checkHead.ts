import type { Commit, Ed25519PublicJwk } from '../fairness/hashChain';
import { GameHeadShape } from '../trust/gameHead';
import { statementProblem } from '../trust/signedStatement';
import type { ExportBundle, Fail } from './exportBundle';
import { shown } from './shown';

export interface HeadCheck {
  /** What the head says, when it is readable. */
  seq?: number;
  at?: string;
  /** The key whose valid signature the head carries. */
  signer?: Ed25519PublicJwk;
}

/**
 * trust.md §4: the export ends where the server's signed head says the game ends.
 * Without it nothing shows the file was not cut short. Failures are labelled seq 0.
 */
export function checkHead(bundle: ExportBundle, sealed: boolean, keysByKid: ReadonlyMap<string, Ed25519PublicJwk>, fail: Fail): HeadCheck {
  const fault = (reason: string) => fail(0, 'head', reason);
  if (bundle.head === undefined) {
    fault('the export has no signed head, so nothing shows it is complete: it may have been cut short');
    return {};
  }
  const parsed = GameHeadShape.safeParse(bundle.head);
  if (!parsed.success) {
    fault('the head is not a GameHead statement');
    return {};
  }
  const head = parsed.data;
  const commits = bundle.commits as Commit[];
  const last = commits.at(-1) as Partial<Commit> | null | undefined;
  if (head.gameId !== bundle.gameId) fault(`the head is for game ${shown(head.gameId)}, not ${shown(bundle.gameId)}`);
  if (head.seq !== commits.length) fault(`the head says seq ${head.seq}, the file ends at seq ${commits.length}`);
  else if (head.lastHash !== last?.hash) fault(`the head's lastHash is not the hash of commit ${commits.length}`);
  if (head.sealed !== sealed) fault(`the head says the game is ${head.sealed ? 'sealed' : 'not sealed'}, the file says it is ${sealed ? 'sealed' : 'not sealed'}`);
  const key = keysByKid.get(head.kid);
  if (!key) {
    fault(`no Ed25519 public key ${shown(head.kid)} in the export for the head's signature`);
    return { seq: head.seq, at: head.at };
  }
  const problem = statementProblem(bundle.head, key);
  if (problem) {
    fault(`the head ${problem}`);
    return { seq: head.seq, at: head.at };
  }
  return { seq: head.seq, at: head.at, signer: key };
}
