import type { ExportExamination, Signer } from '../domain/verify/verifyExport';
import { EXIT } from '../domain/verify/verifierReport';
import { inCommandWords } from './commandName';
import { timeUsedText } from '../domain/verify/timeUsed';

/** Which checks each line of the summary stands for. */
const LINES = {
  chain: ['structure', 'sequence', 'gameId', 'prevHash', 'hash', 'signature', 'sealed', 'creation', 'commitment', 'ruleset', 'keys'],
  seed: ['serverSeed', 'commitment'],
  dice: ['dice', 'entropy'],
  rules: ['rules'],
  beacons: ['beacon'],
  head: ['head'],
  signers: ['trust', 'keyLog', 'retired'],
};

/** How the lines it suggests are written: the CLI's command (commandName.ts) and the export as a shell word. */
export interface Suggested {
  command: string;
  source: string;
}

/**
 * The report in words a player understands, with the command lines to run next. Lines
 * may hold text from the file: the caller escapes them.
 */
export function describeExamination(examination: ExportExamination, suggested: Suggested, trustConfigured: boolean): string[] {
  const { report, signers } = examination;
  const failed = new Set(report.failures.map((f) => f.check));
  const mark = (checks: string[]) => (checks.some((c) => failed.has(c)) ? '✗' : '✓');
  const ruleset = examination.rulesetTitle ? `${report.ruleset}: ${examination.rulesetTitle}` : `${report.ruleset}, a ruleset this verifier does not know`;
  const lines = [
    `game ${report.gameId} (${ruleset}): ${report.commits} commits, ${report.sealed ? 'sealed' : 'not sealed'}`,
    `  ${mark(LINES.chain)} chain: seq contiguous from 1, every prevHash link, every SHA-256 hash and Ed25519 signature`,
  ];
  if (report.sealed) {
    lines.push(`  ${mark(LINES.seed)} seed: SHA-256(serverSeed) equals the commitment published in commit 1`);
    lines.push(`  ${mark(LINES.dice)} dice: ${report.dice} dice re-derived from the seed and the players' entropy${report.beacons ? ", with each roll's drand round" : ''}`);
  } else {
    lines.push('  - dice: not checked yet: the seed stays secret until the organizer seals the game');
  }
  lines.push(
    report.rulesReplayed === report.commits
      ? `  ${mark(LINES.rules)} rules: every command replayed through the ${report.ruleset} ruleset gives the recorded events (${report.rulesReplayed} commits)`
      : `  ✗ rules: ${report.rulesReplayed} of ${report.commits} commits replayed through the ${report.ruleset} ruleset as recorded`,
  );
  for (const v of report.voided ?? []) lines.push(`    #${v.seq} voided by #${v.by}: ${JSON.stringify(v.reason)}`);
  for (const r of report.rulings ?? []) lines.push(`    ruling #${r.seq}: ${JSON.stringify(r.text)}${r.concerning.length ? ` concerning ${r.concerning.map((seq) => `#${seq}`).join(', ')}` : ''}`);
  if (report.beacons) lines.push(`  ${mark(LINES.beacons)} ${beaconLine(report.beacons)}`);
  if (report.clock) lines.push(`  - time used: ${timeUsedText(report.clock)}`);
  lines.push(
    report.head
      ? `  ${mark(LINES.head)} head: the server's signed head says the game ends at seq ${report.head.seq} (${report.head.at})${failed.has('head') ? '' : ', as the file does'}`
      : '  ✗ head: no signed head: nothing shows this file is the whole game',
  );
  for (const signer of signers) lines.push(`  ${signerMark(signer, trustConfigured)} signed by ${describeSigner(signer, trustConfigured)}`);

  if (report.exitCode === EXIT.failed) {
    const [first, ...more] = report.failures;
    lines.push(`FAILED ${first.seq ? `at seq ${first.seq} ` : ''}(${first.check}): ${inCommandWords(first.reason, suggested.command)}`);
    for (const f of more.slice(0, 19)) lines.push(`  also ${f.seq ? `seq ${f.seq} ` : ''}(${f.check}): ${inCommandWords(f.reason, suggested.command)}`);
    if (more.length > 19) lines.push(`  … and ${more.length - 19} more`);
    return lines;
  }
  if (!trustConfigured) {
    const fingerprints = [...new Set(signers.map((s) => s.fingerprint))];
    lines.push('NOT VERIFIED: the game is consistent, but no trusted key is configured, so nothing shows it was signed by the');
    lines.push('  server you play on rather than by whoever made this file. Compare the fingerprint with the one your organizer');
    lines.push('  publishes, then pin it:');
    lines.push(`    ${suggested.command} verify ${suggested.source}${fingerprints.map((f) => ` --trust ${f}`).join('')}`);
    lines.push('  or trust it from now on:');
    for (const fingerprint of fingerprints) lines.push(`    ${suggested.command} trust add ${fingerprint}`);
  }
  if (!report.sealed && report.exitCode !== EXIT.ok) {
    lines.push('NOT SEALED: its dice cannot be checked until the organizer seals the game (--allow-unsealed accepts it as it is).');
  }
  if (report.exitCode === EXIT.ok) lines.push(report.sealed ? 'OK' : 'OK so far: not sealed, so its dice are not checked yet');
  return lines;
}

/** A beacon game's line (beacon.md §5): the drand rounds whose signatures were checked, each named by a pending roll still in the future when it was accepted. */
export function beaconLine({ checked, chain }: { checked: number; chain: string }): string {
  return `drand beacons: ${checked} round${checked === 1 ? '' : 's'} of ${chain} checked (each named a round still in the future when its roll was accepted, and its BLS signature verifies)`;
}

function signerMark(signer: Signer, trustConfigured: boolean): string {
  if (signer.trusted) return '✓';
  return trustConfigured ? '✗' : '?';
}

function describeSigner(signer: Signer, trustConfigured: boolean): string {
  const what = [signer.commits ? `${signer.commits} commit${signer.commits === 1 ? '' : 's'}` : '', signer.signedHead ? 'the head' : ''].filter(Boolean).join(' and ');
  const key = `${signer.fingerprint} (kid ${signer.kid}, ${what})`;
  if (signer.trusted) return `${key}: trusted, ${signer.via === 'pinned' ? 'pinned by you' : `handed over to in key log statement ${signer.via}`}`;
  if (!trustConfigured) return `${key}: not trusted yet`;
  return `${key}: NOT a key you trust`;
}
