import { gameStats, isSealed } from '../domain/stats/gameStats';
import { gameStatsLines } from '../domain/stats/statsText';
import { EXIT } from '../domain/verify/verifierReport';
import { BundleShape, firstIssue } from '../domain/verify/bundleShape';
import type { Commit } from '../domain/fairness/hashChain';
import type { ExportBundle } from '../domain/verify/verifyBundle';
import { examineExport } from '../domain/verify/verifyExport';
import { inputLimit } from './inputLimit';
import type { Io } from './io';
import { exportSource } from './exportSource';
import { exportText, parseExport } from './loadExport';
import { lastValue, parseArguments, UsageError } from './parseArguments';
import { UnusableInput } from './readSource';
import { trustedFingerprints } from './verifyCommand';
import { beaconOptions } from './beaconTrust';

export const STATS_USAGE = `stats FILE|LINK|URL [--trust FINGERPRINT]... [--trust-file FILE] [--trust-beacon CHAINHASH[:PUBLICKEY]]... [--json] [--token TOKEN] [--max-bytes N]
prints a sealed game's dice statistics from its export (docs/fairness-stats.md): the same
figures as GET /games/{id}/stats, re-derived here with no network. The export is verified
first, as verify does it, against the keys you trust (--trust, --trust-file, trust add):
statistics of a file that does not verify, or that no key you trust signed, are not
printed (a beacon game's drand signatures are checked too; --trust-beacon as for verify). --json prints the object the server answers.`;

/**
 * `stats FILE|URL`: a game's dice statistics, from its export. Exit 0 with the figures; 1
 * when the export does not verify; 2 for unusable input; 3 for a game not sealed yet.
 */
export async function statsCommand(args: readonly string[], io: Io): Promise<number> {
  if (args.includes('--help') || args.includes('-h')) {
    for (const line of STATS_USAGE.split('\n')) io.out(line);
    return EXIT.ok;
  }
  const parsed = parseArguments(args, { '--trust': 'strings', '--trust-file': 'strings', '--trust-beacon': 'strings', '--json': 'boolean', '--token': 'string', '--max-bytes': 'string' });
  const [source, ...extra] = parsed.positionals;
  if (source === undefined || extra.length > 0) throw new UsageError('stats takes one export: a file or a URL');
  const resolved = exportSource(source, lastValue(parsed, '--token') ?? io.env.ARBITER_TOKEN);
  const text = await exportText(resolved, inputLimit(lastValue(parsed, '--max-bytes'), io.env));
  const value = parseExport(text, resolved.shown);
  const shape = BundleShape.safeParse(value);
  if (!shape.success) throw new UnusableInput(`${resolved.shown} is not one game's export (${firstIssue(shape.error)}); stats reads one game at a time`);
  const bundle = value as ExportBundle;
  const { trusted, keyLogs } = await trustedFingerprints(parsed.strings.get('--trust') ?? [], parsed.strings.get('--trust-file') ?? [], io);
  const { report } = examineExport(bundle, { trusted, keyLogs, allowUnsealed: false, beacon: beaconOptions(parsed.strings.get('--trust-beacon') ?? []) });
  if (report.exitCode === EXIT.unusable) throw new UnusableInput(`${resolved.shown} is not an Arbiter export: ${report.failures[0]?.reason ?? 'unreadable'}`);
  if (report.exitCode === EXIT.failed) {
    const failure = report.failures[0];
    io.err(`the export does not verify (commit ${failure.seq}, ${failure.check}: ${failure.reason}): its statistics would say nothing about the dice the server drew`);
    return EXIT.failed;
  }
  const commits = bundle.commits as Commit[];
  if (!isSealed(commits)) {
    io.err(`game ${bundle.gameId} is not sealed: its dice statistics are shown once the organizer seals it`);
    return EXIT.inconclusive;
  }
  if (report.exitCode !== EXIT.ok) {
    io.err(`no key you trust signed game ${bundle.gameId}: give the server's fingerprint with --trust (or ${io.command} trust add), or anyone's file with made-up dice would pass`);
    return EXIT.inconclusive;
  }
  const stats = gameStats(bundle.gameId, commits);
  if (parsed.booleans.has('--json')) io.out(JSON.stringify(stats));
  else for (const line of gameStatsLines(stats)) io.out(line);
  return EXIT.ok;
}
