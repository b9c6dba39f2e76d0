// The verify page's checks, off the page's thread (issue 36): the page stays responsive and
// shows progress while a large export is checked, and Cancel ends the worker. The same
// domain code as `arbiter verify`; the page's trusted fingerprints, never the file's keys.
import type { BeaconVerifyOptions } from '../../domain/verify/checkBeacons';
import { parseStrictJson } from '../../domain/json/parseStrictJson';
import { examineTournament, isTournamentHeader, NotATournamentExport } from '../../domain/verify/tournamentExport';
import { examineExport } from '../../domain/verify/verifyExport';
import { BEACON_CHECK_URL, type CommitRow, type VerifyMessage, type VerifyRequest } from './verifyMessages';

interface WorkerScope {
  onmessage: ((event: MessageEvent<VerifyRequest>) => void) | null;
  postMessage(message: VerifyMessage): void;
}
const scope = globalThis as unknown as WorkerScope;

/** At most this often a progress message: a 10,000-commit game would otherwise post 30,000. */
const PROGRESS_EVERY_MS = 100;

scope.onmessage = (event) => {
  void check(event.data)
    .catch((error: unknown): VerifyMessage => ({ kind: 'error', reason: error instanceof Error ? error.message : String(error) }))
    .then((message) => scope.postMessage(message));
};

async function check({ file, trusted, keyLogs, allowUnsealed, trustedChains }: VerifyRequest): Promise<VerifyMessage> {
  const text = await file.text();
  const options = { trusted, keyLogs, allowUnsealed, beacon: await beaconOptions(text, trustedChains) };
  const newline = text.indexOf('\n');
  const first = tryParse(newline < 0 ? text : text.slice(0, newline));
  if (first && isTournamentHeader(first.value)) {
    try {
      const examination = await examineTournament(text.split('\n'), options, (done, total) => post({ kind: 'progress', unit: 'games', done, total }, done === total));
      return { kind: 'tournament', examination };
    } catch (error) {
      if (error instanceof NotATournamentExport) return { kind: 'unusable', reason: `not a tournament export that can be checked: ${error.message}` };
      throw error;
    }
  }
  let bundle: unknown;
  try {
    // The first line is the whole export when nothing but blanks follow it: parsed once.
    bundle = first && (newline < 0 || /^\s*$/.test(text.slice(newline))) ? first.value : parseStrictJson(text);
  } catch (error) {
    return { kind: 'unusable', reason: `not JSON an export can be: ${(error as Error).message}` };
  }
  const examination = examineExport(bundle, options, (step, done, total) => post({ kind: 'progress', unit: 'commits', step, done, total }, done === total));
  return { kind: 'game', examination, commits: examination.report.exitCode === 2 ? null : commitRows(bundle) };
}

/**
 * A beacon game's GameCreated holds a "beacon" key: only then is the BLS code loaded (a
 * separate file, web/build.ts). Another file naming "beacon" only loads it for nothing.
 */
async function beaconOptions(text: string, trustedChains: string[]): Promise<BeaconVerifyOptions> {
  if (!text.includes('"beacon"')) return { trustedChains };
  const { cachedBeaconCheck } = (await import(BEACON_CHECK_URL)) as typeof import('./beaconCheck');
  return { check: cachedBeaconCheck(), trustedChains };
}

let lastPost = 0;
function post(message: VerifyMessage, always: boolean): void {
  const now = performance.now();
  if (!always && now - lastPost < PROGRESS_EVERY_MS) return;
  lastPost = now;
  scope.postMessage(message);
}

function tryParse(line: string): { value: unknown } | undefined {
  try {
    return { value: parseStrictJson(line) };
  } catch {
    return undefined;
  }
}

function commitRows(bundle: unknown): CommitRow[] | null {
  const commits = (bundle as { commits?: unknown }).commits;
  if (!Array.isArray(commits)) return null;
  return commits.map((raw) => {
    const c = raw as { actor?: unknown; command?: { type?: unknown }; dice?: unknown } | null;
    return {
      actor: typeof c?.actor === 'string' ? c.actor : '?',
      command: typeof c?.command?.type === 'string' ? c.command.type : '?',
      dice: Array.isArray(c?.dice) ? c.dice.length : 0,
    };
  });
}
