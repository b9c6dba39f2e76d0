import * as z from 'zod';
import { parseStrictJson } from '../json/parseStrictJson';
import { EXIT, unusableInputReport, type ExitCode, type VerifierReport } from './verifierReport';
import { examineExport, type ExportExamination, type VerifyOptions } from './verifyExport';

export const TOURNAMENT_EXPORT_FORMAT = 'arbiter-tournament-export/1';

/**
 * The first line of a tournament export (GET /tournaments/{id}/export, NDJSON): the lines
 * after it are the games' exports (fairness-v1 §7), one per line. The header is not signed:
 * each game stands on its own hashes, signatures and signed head.
 */
export const TournamentExportHeader = z.object({
  format: z.literal(TOURNAMENT_EXPORT_FORMAT),
  tournamentId: z.string(),
  name: z.string(),
  exportedAt: z.string(),
  games: z.int().min(0).describe('how many game lines follow'),
});
export type TournamentExportHeader = z.infer<typeof TournamentExportHeader>;

/** Is this text a tournament export rather than one game's? Judged by its first line alone. */
export function isTournamentExport(text: string): boolean {
  const end = text.indexOf('\n');
  return isTournamentHeader(safeParse(end === -1 ? text : text.slice(0, end)));
}

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
  header: TournamentExportHeader;
  games: TournamentGameResult[];
  /** What is wrong with the file as a whole (a line count that differs from the header's, a game twice). */
  problems: VerifierReport[];
  exitCode: ExitCode;
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
  let header: TournamentExportHeader | undefined;
  const games: TournamentGameResult[] = [];
  const problems: VerifierReport[] = [];
  const seen = new Set<string>();
  const examineLine = (text: string, line: number) => {
    let examination: ExportExamination;
    try {
      examination = examineExport(parseStrictJson(text), options);
    } catch (error) {
      examination = { report: unusableInputReport(`line ${line} is not valid JSON: ${(error as Error).message}`), signers: [], keyLogUsed: [] };
    }
    const gameId = examination.report.gameId;
    if (gameId !== null && seen.has(gameId)) {
      examination.report.failures.push({ seq: 0, check: 'input', reason: `game ${gameId} appears twice in the file (again on line ${line})` });
      examination.report.exitCode = EXIT.failed;
      examination.report.ok = false;
    }
    if (gameId !== null) seen.add(gameId);
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
      const parsedHeader = TournamentExportHeader.safeParse(safeParse(text));
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
  return { header, games, problems, exitCode: worstExit([...games.map((g) => g.examination.report.exitCode), ...problems.map((p) => p.exitCode)]) };
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
