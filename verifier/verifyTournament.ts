import { EXIT, type ExitCode } from '../domain/verify/verifierReport';
import { examineTournament, type TournamentExamination } from '../domain/verify/tournamentExport';
import { tournamentCounts, tournamentGameVerdict } from '../domain/verify/tournamentVerdict';
import type { VerifyOptions } from '../domain/verify/verifyExport';
import type { Io } from './io';
import { printableJson } from './printable';
import { inCommandWords } from './commandName';

const BAR_WIDTH = 24;

/**
 * `verify` on a tournament export: every game verified as a single export would
 * be, a progress bar on a terminal (one plain line per game otherwise, on stderr), then a
 * table with a line per game and the totals. With --json: one report per game, a line each.
 */
export async function verifyTournament(lines: string | AsyncIterable<string>, options: VerifyOptions & { json: boolean }, io: Io): Promise<ExitCode> {
  const examination = await examineTournament(lines, options, (done, total, result) => {
    if (io.progress) io.progress(`${bar(done, total)} ${done}/${total} games verified`);
    else io.err(`verified ${done}/${total}: ${result.examination.report.gameId ?? `line ${result.line}`} ${inCommandWords(tournamentGameVerdict(result), io.command)}`);
  });
  if (io.progress) io.progress('');
  if (options.json) {
    for (const game of examination.games) io.out(printableJson(JSON.stringify(game.examination.report)));
    for (const problem of examination.problems) io.out(printableJson(JSON.stringify(problem)));
  } else {
    for (const line of summaryTable(examination, options.trusted.length > 0, io.command)) io.out(line);
  }
  return examination.exitCode;
}

function bar(done: number, total: number): string {
  const filled = total === 0 ? BAR_WIDTH : Math.round((done / total) * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}]`;
}


function summaryTable(examination: TournamentExamination, trustConfigured: boolean, command: string): string[] {
  const { header, games, problems } = examination;
  const rows = games.map((game) => {
    const { report } = game.examination;
    return [report.gameId ?? `(line ${game.line})`, report.ruleset ?? '-', String(report.commits), report.sealed ? 'yes' : 'no', inCommandWords(tournamentGameVerdict(game), command)];
  });
  const titles = ['game', 'ruleset', 'commits', 'sealed', 'result'];
  const widths = titles.map((title, i) => Math.max(title.length, ...rows.slice(0, 10_000).map((row) => (i === 4 ? 0 : row[i].length))));
  const format = (cells: string[]) => cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ');
  const lines = [
    `tournament ${header.tournamentId}${header.name ? ` (${header.name})` : ''}: ${header.games} games, exported ${header.exportedAt}`,
    format(titles),
    ...rows.map(format),
  ];
  const beaconGames = games.filter((game) => game.examination.report.beacons);
  if (beaconGames.length > 0) {
    const failed = beaconGames.filter((game) => game.examination.report.failures.some((f) => f.check === 'beacon')).length;
    const rounds = beaconGames.reduce((sum, game) => sum + (game.examination.report.beacons?.checked ?? 0), 0);
    const chains = [...new Set(beaconGames.map((game) => game.examination.report.beacons?.chain))].join(', ');
    lines.push(`${failed ? '✗' : '✓'} drand beacons: ${beaconGames.length} beacon game${beaconGames.length === 1 ? '' : 's'}, ${rounds} rounds of ${chains} checked${failed ? `; ${failed} game${failed === 1 ? '' : 's'} failed a beacon check` : ''}`);
  }
  for (const problem of problems) lines.push(`FILE: ${inCommandWords(problem.failures[0].reason, command)}`);
  lines.push(`${games.length} games: ${tournamentCounts(examination, trustConfigured).join(', ')}`);
  if (!trustConfigured && (games.length > 0 || examination.headSigner)) {
    const headSigner = examination.headSigner ? [examination.headSigner.fingerprint] : [];
    const fingerprints = [...new Set([...games.flatMap((g) => g.examination.signers.map((s) => s.fingerprint)), ...headSigner])];
    lines.push('NOT VERIFIED: no trusted key is configured. Compare the fingerprint with the one your server publishes, then pin it:');
    for (const fingerprint of fingerprints) lines.push(`    ${command} trust add ${fingerprint}`);
  }
  lines.push(examination.exitCode === EXIT.ok ? 'OK: every game verified' : `exit ${examination.exitCode}: see the games above`);
  return lines;
}
