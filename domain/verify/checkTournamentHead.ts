import { fingerprintOf } from '../trust/fingerprint';
import { walkKeyLog } from '../trust/keyLog';
import { retiredSignature } from '../trust/retirement';
import { statementProblem } from '../trust/signedStatement';
import { listingProblems, TournamentHeadShape, type ListedGameLine, type ListingProblem, type TournamentHead } from '../trust/tournamentHead';
import type { VerificationFailure } from './exportBundle';
import { shown } from './shown';
import { signingKeysOf } from './signingKeys';
import type { ReadHeader } from './tournamentHeader';
import type { VerifyOptions } from './verifyExport';

export interface TournamentHeadCheck {
  /** Failures of the file as a whole: a missing, unsigned or untrusted head, a game the file lacks. */
  failures: VerificationFailure[];
  /** Failures of one game line, by its line number. */
  byLine: Map<number, VerificationFailure[]>;
  /** The file is one page, not the whole list: what it covers, in words. */
  partial?: string;
  /** The key that signed the tournament head, when its signature holds. */
  signer?: { fingerprint: string; trusted: boolean };
}

const CHECK = 'tournament';

/**
 * trust.md §7: the header's signed tournament head lists every game of the tournament in
 * creation order; the file must hold exactly those (or, for a page, exactly the run the
 * page names), each created in the tournament and ending at the listed head. The head is
 * signed by a key the trusted fingerprints reach through the key log, as a game head is.
 */
export function checkTournamentHead(header: ReadHeader, lines: readonly ListedGameLine[], options: VerifyOptions): TournamentHeadCheck {
  const failures: VerificationFailure[] = [];
  const byLine = new Map<number, VerificationFailure[]>();
  const fail = (reason: string) => void failures.push({ seq: 0, check: CHECK, reason });
  if (header.tournamentHead === undefined) {
    fail('the file has no signed tournament head, so nothing ties its games to the tournament: games may have been swapped, dropped or added');
    return { failures, byLine };
  }
  const parsed = TournamentHeadShape.safeParse(header.tournamentHead);
  if (!parsed.success) {
    fail('the tournament head is not a TournamentHead statement');
    return { failures, byLine };
  }
  const head = parsed.data;
  if (head.tournamentId !== header.tournamentId) fail(`the tournament head is for tournament ${shown(head.tournamentId)}, not ${shown(header.tournamentId)}`);
  const signer = checkSignature(header, header.tournamentHead as TournamentHead, options, fail);
  const expected = expectedRun(header, head, fail);
  const report = (problem: ListingProblem) => {
    const failure = { seq: 0, check: CHECK, reason: problem.reason };
    if (problem.line === 0) failures.push(failure);
    else byLine.set(problem.line, [...(byLine.get(problem.line) ?? []), failure]);
  };
  if (expected) listingProblems(head.tournamentId, expected.games, lines).forEach(report);
  return { failures, byLine, ...(expected?.partial ? { partial: expected.partial } : {}), ...(signer ? { signer } : {}) };
}

function checkSignature(header: ReadHeader, head: TournamentHead, options: VerifyOptions, fail: (reason: string) => void) {
  const listed = (header.keys as { keys?: unknown } | null | undefined)?.keys;
  const keysByKid = signingKeysOf(Array.isArray(listed) ? listed : [], (_seq, _check, reason) => fail(reason));
  const key = keysByKid.get(head.kid);
  if (!key) {
    fail(`no Ed25519 public key ${shown(head.kid)} in the header for the tournament head's signature`);
    return undefined;
  }
  const problem = statementProblem(head, key);
  if (problem) {
    fail(`the tournament head ${problem}`);
    return undefined;
  }
  const walk = walkKeyLog(header.keyLog ?? [], options.trusted, [...keysByKid.values()]);
  if (walk.failure) fail(`${walk.failure.n ? `key log statement ${walk.failure.n}` : 'the key log'} ${walk.failure.reason}`);
  const fingerprint = fingerprintOf(key);
  const trusted = walk.trusted.has(fingerprint);
  if (options.trusted.length > 0 && !trusted) fail(`the tournament head is signed by ${fingerprint}, a key none of your trusted fingerprints reaches`);
  const retired = retiredSignature(fingerprint, head.at, header.keyLog ?? [], ...(options.keyLogs ?? []));
  if (retired) fail(`the tournament head was ${retired}`);
  return { fingerprint, trusted };
}

/** The games the file must hold: the whole list, or for a page the run after `page.after` up to and including `page.next`. */
function expectedRun(header: ReadHeader, head: TournamentHead, fail: (reason: string) => void) {
  const { games } = head;
  if (!header.page) return { games };
  const indexOf = (gameId: string) => games.findIndex((entry) => entry.gameId === gameId);
  const { after, next } = header.page;
  const start = after === null ? 0 : indexOf(after) + 1;
  if (start === 0 && after !== null) return void fail(`the page follows game ${shown(after)}, which the tournament head does not list`);
  let end = games.length;
  if (next !== null) {
    const last = indexOf(next);
    if (last < start) return void fail(`the page ends at game ${shown(next)}, which the tournament head does not list after ${shown(after)}`);
    end = last + 1;
  }
  const run = games.slice(start, end);
  const partial = start > 0 || end < games.length ? `this file is one page: games ${start + 1} to ${end} of the ${games.length} the tournament head lists; verify every page` : undefined;
  return { games: run, partial };
}
