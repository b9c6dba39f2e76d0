import { parseStrictJson } from '../json/parseStrictJson';
import type { ListedGameLine } from '../trust/tournamentHead';
import { checkTournamentHead } from './checkTournamentHead';
import { EXIT, unusableInputReport, type ExitCode, type VerifierReport } from './verifierReport';
import { examineExport, type ExportExamination, type VerifyOptions } from './verifyExport';

import { ReadHeader, TOURNAMENT_EXPORT_FORMAT } from './tournamentHeader';

export { ReadHeader, TOURNAMENT_EXPORT_FORMAT, TournamentExportHeader } from './tournamentHeader';

/** Is this value (a parsed first line) the header of a tournament export? */
export function isTournamentHeader(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { format?: unknown }).format === TOURNAMENT_EXPORT_FORMAT;
}

export interface TournamentGameResult {
  /** Its line in the file, from 1 (the header is line 1). */
  line: number;
  examination: ExportExamination;
}

export interface TournamentExamination {
  header: ReadHeader;
  games: TournamentGameResult[];
  /** What is wrong with the file as a whole (a line count that differs from the header's, a game twice). */
  problems: VerifierReport[];
  exitCode: ExitCode;
  /** The key that signed the tournament head, when its signature holds. */
  headSigner?: { fingerprint: string; trusted: boolean };
}

/** Thrown when the first line is not a tournament header: the file cannot be used at all. */
export class NotATournamentExport extends Error {}

/**
 * Verifies every game of a tournament export, one line at a time, calling `progress`
 * after each. The exit code is the worst of the games' and the file's: a failed check (1)
 * before unusable input (2) before inconclusive (3) before OK (0). Pure: no network.
 * The lines may come as they are read: only one is held at a time.
 */
export async function examineTournament(
  input: string | Iterable<string> | AsyncIterable<string>,
  options: VerifyOptions,
  progress: (done: number, total: number, result: TournamentGameResult) => void = () => undefined,
): Promise<TournamentExamination> {
  const lines = typeof input === 'string' ? input.split('\n') : input;
  let header: ReadHeader | undefined;
  const games: TournamentGameResult[] = [];
  const problems: VerifierReport[] = [];
  const seen = new Set<string>();
  const listed: ListedGameLine[] = [];
  const examineLine = (text: string, line: number) => {
    let examination: ExportExamination;
    let parsed: unknown;
    try {
      parsed = parseStrictJson(text);
      examination = examineExport(parsed, options);
    } catch (error) {
      examination = { report: unusableInputReport(`line ${line} is not valid JSON: ${(error as Error).message}`), signers: [], keyLogUsed: [] };
    }
    const gameId = examination.report.gameId;
    if (gameId !== null && seen.has(gameId)) failGame(examination, `game ${gameId} appears twice in the file (again on line ${line})`);
    if (gameId !== null) {
      seen.add(gameId);
      listed.push({ line, gameId, ...claimsOf(parsed) });
    }
    const result = { line, examination };
    games.push(result);
    progress(games.length, Math.max(header?.games ?? 0, games.length), result);
  };
  // An empty line waits for the next: the one after the final '\n' is no game.
  let lineNumber = 0;
  let held: string | undefined;
  for await (const text of lines) {
    lineNumber += 1;
    if (lineNumber === 1) {
      const parsedHeader = ReadHeader.safeParse(safeParse(text));
      if (!parsedHeader.success) throw new NotATournamentExport('its first line is not the header of a tournament export');
      header = parsedHeader.data;
      continue;
    }
    if (held !== undefined) examineLine(held, lineNumber - 1);
    held = text === '' ? text : undefined;
    if (held === undefined) examineLine(text, lineNumber);
  }
  if (!header) throw new NotATournamentExport('its first line is not the header of a tournament export');
  if (games.length !== header.games) {
    problems.push(
      unusableInputReport(
        games.length < header.games
          ? `the header announces ${header.games} games but the file holds ${games.length}: it was cut short`
          : `the header announces ${header.games} games but the file holds ${games.length}`,
      ),
    );
  }
  const tournament = checkTournamentHead(header, listed, options);
  for (const game of games) for (const failure of tournament.byLine.get(game.line) ?? []) failGame(game.examination, failure.reason, failure.check);
  for (const failure of tournament.failures) problems.push(fileReport(EXIT.failed, failure.check, failure.reason));
  if (tournament.partial) problems.push(fileReport(EXIT.inconclusive, 'tournament', tournament.partial));
  if (tournament.signer && options.trusted.length === 0) {
    problems.push(fileReport(EXIT.inconclusive, 'trust', `the tournament head is signed by ${tournament.signer.fingerprint}, but no trusted key is configured`));
  }
  return {
    header,
    games,
    problems,
    exitCode: worstExit([...games.map((g) => g.examination.report.exitCode), ...problems.map((p) => p.exitCode)]),
    ...(tournament.signer ? { headSigner: tournament.signer } : {}),
  };
}

function failGame(examination: ExportExamination, reason: string, check = 'input'): void {
  examination.report.failures.push({ seq: 0, check, reason });
  examination.report.exitCode = EXIT.failed;
  examination.report.ok = false;
}

/** A problem of the file as a whole, as a report of its own (what --json prints after the games). */
function fileReport(exitCode: ExitCode, check: string, reason: string): VerifierReport {
  return { ...unusableInputReport(reason), exitCode, failures: [{ seq: 0, check, reason }] };
}

/** What a game line says of its tournament and its head, read without trusting its shape. */
function claimsOf(bundle: unknown): Pick<ListedGameLine, 'createdIn' | 'headHash'> {
  const value = bundle as { commits?: { events?: { type?: unknown; data?: { tournamentId?: unknown } }[] }[]; head?: { hash?: unknown } } | null;
  const created = Array.isArray(value?.commits) ? value.commits[0]?.events?.[0] : undefined;
  const tournamentId = created?.type === 'GameCreated' ? created.data?.tournamentId : undefined;
  const headHash = value?.head?.hash;
  return { createdIn: typeof tournamentId === 'string' ? tournamentId : undefined, headHash: typeof headHash === 'string' ? headHash : undefined };
}

const SEVERITY: readonly ExitCode[] = [EXIT.failed, EXIT.unusable, EXIT.inconclusive, EXIT.ok];

export function worstExit(codes: readonly ExitCode[]): ExitCode {
  return SEVERITY.find((code) => codes.includes(code)) ?? EXIT.ok;
}

function safeParse(text: string): unknown {
  try {
    return parseStrictJson(text);
  } catch {
    return undefined;
  }
}
