import { readFile } from 'node:fs/promises';
import { verifyBundle, type ExportBundle, type VerificationReport } from '../../domain/verify/verifyBundle';

const USAGE = `usage: arbiter verify <export.json | url> [--token TOKEN]

Checks a game exported from Arbiter (GET /games/{id}/export) against fairness-v1:
every hash, link and signature; once sealed, the seed and every die; and the
rules, by replaying every command. A file is checked with no network at all.
A url (of a game or its export) is fetched first, with --token or ARBITER_TOKEN.
Exit status: 0 when everything checks out, 1 otherwise.`;

export async function main(args: string[], out: (line: string) => void = console.log): Promise<number> {
  const [verb, source, ...rest] = args;
  if (verb !== 'verify' || !source) {
    out(USAGE);
    return 1;
  }
  const tokenIndex = rest.indexOf('--token');
  const token = tokenIndex >= 0 ? rest[tokenIndex + 1] : process.env.ARBITER_TOKEN;
  let bundle: ExportBundle;
  try {
    bundle = JSON.parse(await load(source, token)) as ExportBundle;
  } catch (error) {
    out(`cannot read ${source}: ${(error as Error).message}`);
    return 1;
  }
  const report = verifyBundle(bundle);
  for (const line of describe(bundle, report)) out(line);
  return report.ok ? 0 : 1;
}

async function load(source: string, token: string | undefined): Promise<string> {
  if (!/^https?:\/\//.test(source)) return readFile(source, 'utf8');
  const url = new URL(source);
  if (/\/games\/[^/]+\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/$/, '')}/export`;
  const response = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await response.text();
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${text.slice(0, 300)}`);
  return text;
}

export function describe(bundle: ExportBundle, report: VerificationReport): string[] {
  const failedChecks = new Set(report.failures.map((f) => f.check));
  const mark = (checks: string[]) => (checks.some((c) => failedChecks.has(c)) ? '✗' : '✓');
  const lines = [
    `game ${bundle.gameId} (${bundle.ruleset}): ${report.checkedCommits} commits, ${report.sealed ? 'sealed' : 'not sealed'}`,
    `  ${mark(['structure', 'sequence', 'gameId', 'prevHash', 'hash', 'signature', 'sealed', 'creation', 'commitment'])} chain: seq contiguous from 1, every prevHash link, every SHA-256 hash and Ed25519 signature`,
  ];
  if (report.sealed) {
    lines.push(`  ${mark(['serverSeed', 'commitment'])} seed: SHA-256(serverSeed) equals the commitment published in commit 1`);
    lines.push(`  ${mark(['dice', 'entropy'])} dice: ${report.checkedDice} dice re-derived from the seed and the players' entropy`);
  } else {
    lines.push('  - dice: not checked yet: the seed stays secret until the organizer seals the game');
  }
  lines.push(`  ${mark(['rules'])} rules: every command replayed through the ${bundle.ruleset} ruleset gives the recorded events`);
  if (report.ok) {
    lines.push('OK');
  } else {
    const [first] = report.failures;
    lines.push(`FAILED at seq ${first.seq} (${first.check}): ${first.reason}`);
    for (const f of report.failures.slice(1, 20)) lines.push(`  also seq ${f.seq} (${f.check}): ${f.reason}`);
    if (report.failures.length > 20) lines.push(`  … and ${report.failures.length - 20} more`);
  }
  return lines;
}
