import type { Commit } from '../../domain/fairness/hashChain';
import type { GameState } from '../../domain/game/gameState';
import { escapeLine, textLine } from '../../domain/game/textLine';
import { loadedRuleset } from '../application/rulesetLoader';
import { resultTextOf } from '../../domain/ruleset';
import { encode, pushError, type PushLimits } from './protocol';

/**
 * Who a subscription was authorized as, kept with it so that a later revocation ends it:
 * `public` (a public game: anyone may read it, no revocation applies), `role:<role>` (a
 * side's or the organizer's token; a tournament's token reads as the organizer), or
 * `viewer:<viewerId>` (a spectator link).
 */
export type Identity = 'public' | `role:${string}` | `viewer:${string}`;

export const isIdentity = (value: unknown): value is Identity =>
  typeof value === 'string' && (value === 'public' || /^role:.{1,64}$/s.test(value) || /^viewer:v-[0-9a-z]{1,10}$/.test(value));

/** What the fan-out needs to know of one subscription, on either path. */
export interface Subscriber {
  identity: Identity;
  /** The last seq this subscriber has been sent (or holds): later commits only. */
  after: number;
  /** The version its token was checked at: a revocation in a later commit ends the subscription. */
  authorizedAt: number;
}

/**
 * The chat-log line of a commit (http-api.md "Text for chat logs"), as GET .../events with Accept: text/plain gives it:
 * a Roll of several labelled rolls gives one line per roll, separated by a line feed. A commit is pushed when it is
 * recorded, before any Void could take it back: the Void's own line says so later. The game's ruleset is loaded
 * first (rulesetLoader.ts loadRuleset: opening a subscription loads its game).
 */
export function commitLine(rulesetId: string, commit: Commit): string {
  const ruleset = loadedRuleset(rulesetId);
  try {
    // textLine reads nothing of the state but its ruleset (decideGame's summarizeCommit).
    return textLine(ruleset ? ({ ruleset } as GameState) : undefined, commit);
  } catch {
    // A summary that cannot be made costs the summary, never the commit's delivery.
    return escapeLine(`#${commit.seq} ${commit.actor} ${commit.command?.type} [${String(commit.hash).slice(0, 8)}]`);
  }
}

/**
 * The text of a `commit` message, made once per commit for all its subscribers: the commit, its
 * chat-log line and its result text (the ruleset's `resultText`, '' when it resolves nothing). A commit
 * too large for one frame is announced by a `gap`: the client reads it over HTTP.
 */
export function commitText(rulesetId: string, commit: Commit, limits: Pick<PushLimits, 'maxFrameBytes'>): string {
  const result = resultTextOf(loadedRuleset(rulesetId), commit.command, commit.events);
  const text = encode({ type: 'commit', gameId: commit.gameId, commit, line: commitLine(rulesetId, commit), result });
  if (Buffer.byteLength(text, 'utf8') <= limits.maxFrameBytes) return text;
  return encode({ type: 'gap', gameId: commit.gameId, after: commit.seq - 1, version: commit.seq });
}

/** The roles whose token stops working with this commit (a TokenRevoked or TokenReissued event). */
export function rolesLosingTokens(commit: Commit): string[] {
  return commit.events.filter((e) => e.type === 'TokenRevoked' || e.type === 'TokenReissued').map((e) => String(e.data?.role));
}

export const revokedText = (gameId: string) =>
  encode(
    pushError(
      'unauthenticated',
      'The token this subscription was made with no longer reads this game (revoked or reissued): subscribe again with a current token.',
      gameId,
    ),
  );

export type Delivery =
  /** Already sent (catch-up or an earlier delivery). */
  | { kind: 'skip' }
  | { kind: 'send'; text: string }
  /** The token no longer works: send this error and drop the subscription. */
  | { kind: 'end'; text: string };

/**
 * What one subscriber gets for one new commit: nothing if it has it; the end of its
 * subscription if the commit takes its token away; else the commit. The same rule on the
 * local server and in the AWS stream function.
 */
export function deliveryFor(subscriber: Subscriber, commit: Commit, text: string): Delivery {
  if (commit.seq <= subscriber.after) return { kind: 'skip' };
  if (commit.seq > subscriber.authorizedAt && subscriber.identity.startsWith('role:')) {
    const role = subscriber.identity.slice('role:'.length);
    if (rolesLosingTokens(commit).includes(role)) return { kind: 'end', text: revokedText(commit.gameId) };
  }
  return { kind: 'send', text };
}

/** A spectator link's revocation ends exactly the subscriptions made with it. */
export const endedByViewerRevocation = (identity: Identity, viewerId: string) => identity === `viewer:${viewerId}`;
