import { isFingerprint } from '../domain/trust/fingerprint';
import { EXIT, unusableInputReport } from '../domain/verify/verifierReport';
import { shown } from '../domain/verify/shown';
import { examineExport } from '../domain/verify/verifyExport';
import { describeExamination } from './describeExamination';
import type { Io } from './io';
import { openExport } from './loadExport';
import { NotATournamentExport } from '../domain/verify/tournamentExport';
import { inputLimit } from './inputLimit';
import { verifyTournament } from './verifyTournament';
import { lastValue, parseArguments, UsageError } from './parseArguments';
import { printableJson } from './printable';
import { UnusableInput } from './readSource';
import { fingerprintsOfTrustDocument, keyLogsOfTrustDocument, readTrustDocument } from './trustedFingerprints';
import { keptKeyLogs, readTrustStore } from './trustStore';
import { usage } from './usage';
import { exportSource, type ExportSource } from './exportSource';
import { shellWord } from './commandName';
import { beaconOptions } from './beaconTrust';

const FLAGS = { '--trust': 'strings', '--trust-file': 'strings', '--trust-beacon': 'strings', '--allow-unsealed': 'boolean', '--json': 'boolean', '--token': 'string', '--max-bytes': 'string', '--help': 'boolean' } as const;

/** `verify FILE|LINK|URL (a game's export, or a tournament's; a web app link) [--trust FP]... [--trust-file F] [--trust-beacon CHAINHASH[:PUBLICKEY]]... [--allow-unsealed] [--json] [--token T] [--max-bytes N]` (trust.md §5). */
export async function verifyCommand(args: readonly string[], io: Io): Promise<number> {
  const json = args.includes('--json');
  const unusable = (reason: string) => {
    io.err(`arbiter verify: ${reason}`);
    if (json) io.out(printableJson(JSON.stringify(unusableInputReport(reason))));
    return EXIT.unusable;
  };
  try {
    const parsed = parseArguments(args, FLAGS, { '-h': '--help' });
    if (parsed.booleans.has('--help')) {
      for (const line of usage(io.command).split('\n')) io.out(line);
      return EXIT.ok;
    }
    if (parsed.positionals.length !== 1) throw new UsageError(parsed.positionals.length ? 'give one export: a file, a link or a URL' : "which export? give a file, a game's link or a URL");
    const source = exportSource(parsed.positionals[0], lastValue(parsed, '--token') ?? io.env.ARBITER_TOKEN);
    const { trusted, keyLogs } = await trustedFingerprints(parsed.strings.get('--trust') ?? [], parsed.strings.get('--trust-file') ?? [], io);
    const beacon = beaconOptions(parsed.strings.get('--trust-beacon') ?? []);
    const limit = inputLimit(lastValue(parsed, '--max-bytes'), io.env);
    const opened = await openExport(source, limit, { onWait: (seconds) => io.err(`the server is making the export; asking again in ${seconds} s`) });
    const allowUnsealed = parsed.booleans.has('--allow-unsealed');
    if (opened.kind === 'tournament') return await verifyTournament(opened.lines, { trusted, keyLogs, allowUnsealed, beacon, json }, io);
    const { bundle } = opened;
    const examination = examineExport(bundle, { trusted, keyLogs, allowUnsealed, beacon });
    const { report } = examination;
    if (report.exitCode === EXIT.unusable) {
      const why = isObject(bundle) ? (report.failures[0]?.reason ?? '').replace(/^not an export bundle: /, '') : `it holds ${shown(bundle)}, not an object`;
      return unusable(`${source.shown} is not an Arbiter export: ${why}`);
    }
    if (json) io.out(printableJson(JSON.stringify(report)));
    else for (const line of describeExamination(examination, { command: io.command, source: sourceWord(source) }, trusted.length > 0)) io.out(line);
    return report.exitCode;
  } catch (error) {
    if (error instanceof UsageError) return unusable(`${error.message} (${io.command} --help shows how)`);
    if (error instanceof UnusableInput) return unusable(error.message);
    if (error instanceof NotATournamentExport) return unusable(error.message);
    throw error;
  }
}

/**
 * --trust, --trust-file and the person's own trust file, together (trust.md §5), with the
 * key logs the files keep: the retirements they state hold whatever the export says (§6).
 */
export async function trustedFingerprints(given: readonly string[], files: readonly string[], io: Io): Promise<{ trusted: string[]; keyLogs: unknown[] }> {
  const all = new Set<string>();
  const keyLogs: unknown[] = [];
  for (const fingerprint of given) {
    if (!isFingerprint(fingerprint)) throw new UsageError(`--trust takes a fingerprint like ed25519:<43 characters>, not ${JSON.stringify(fingerprint)}`);
    all.add(fingerprint);
  }
  for (const file of files) {
    const document = await readTrustDocument(file);
    for (const fingerprint of fingerprintsOfTrustDocument(document, JSON.stringify(file))) all.add(fingerprint);
    keyLogs.push(...keyLogsOfTrustDocument(document));
  }
  for (const entry of await readTrustStore(io)) all.add(entry.fingerprint);
  keyLogs.push(...(await keptKeyLogs(io)));
  return { trusted: [...all], keyLogs };
}

function isObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The export as the person names it again in a suggested command: a file as given; a link with its token left out for them to put back. */
function sourceWord(source: ExportSource): string {
  if (source.kind === 'file') return shellWord(source.path);
  return shellWord(source.shown.includes('/#/') ? `${source.shown}?token=…` : source.shown);
}
