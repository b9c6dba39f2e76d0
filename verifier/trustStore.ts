import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isFingerprint } from '../domain/trust/fingerprint';
import type { Io } from './io';
import { MissingFile, UnusableInput } from './readSource';
import { readTrustDocument } from './trustedFingerprints';

/** One fingerprint the person decided to trust, like a line of SSH's known_hosts. */
export interface TrustEntry {
  fingerprint: string;
  /** Where it came from: the /keys URL, or "given by hand". */
  source: string;
  added: string;
}

/** The key log of a server's /keys, kept with its pins for the retirements it states (trust.md §6). */
export interface KeptKeyLog {
  /** The /keys URL or saved file it came from. */
  source: string;
  log: unknown[];
}

/** $ARBITER_TRUST_FILE, or ~/.config/arbiter/trusted-keys.json. */
export function trustFilePath(io: Io): string {
  return io.env.ARBITER_TRUST_FILE || join(io.home, '.config', 'arbiter', 'trusted-keys.json');
}

/** The person's own trusted fingerprints; none when the file does not exist yet. */
export async function readTrustStore(io: Io): Promise<TrustEntry[]> {
  return (await readTrustFile(io)).trusted;
}

/** The key logs kept with the pins, as verify uses them: the newest of each source. */
export async function keptKeyLogs(io: Io): Promise<unknown[]> {
  return (await readTrustFile(io)).logs.map((kept) => kept.log);
}

async function readTrustFile(io: Io): Promise<{ trusted: TrustEntry[]; logs: KeptKeyLog[] }> {
  const path = trustFilePath(io);
  let document: unknown;
  try {
    document = await readTrustDocument(path);
  } catch (error) {
    if (error instanceof MissingFile) return { trusted: [], logs: [] };
    throw new UnusableInput(`your trust file: ${(error as Error).message}`);
  }
  const entries = (document as { trusted?: unknown } | null)?.trusted;
  if (!Array.isArray(entries)) throw new UnusableInput(`your trust file ${JSON.stringify(path)} has no "trusted" list`);
  const trusted = entries.map((entry: unknown, i) => {
    const { fingerprint, source, added } = (entry ?? {}) as Partial<Record<keyof TrustEntry, unknown>>;
    if (!isFingerprint(fingerprint)) throw new UnusableInput(`your trust file ${JSON.stringify(path)}: entry ${i + 1} has no valid fingerprint`);
    return { fingerprint, source: typeof source === 'string' ? source : '', added: typeof added === 'string' ? added : '' };
  });
  const kept = (document as { logs?: unknown }).logs;
  const logs = Array.isArray(kept) ? kept.filter((k: unknown): k is KeptKeyLog => typeof (k as KeptKeyLog | null)?.source === 'string' && Array.isArray((k as KeptKeyLog).log)) : [];
  return { trusted, logs };
}

/**
 * Adds the fingerprints not stored yet, and keeps `log` (a /keys key log) in place of the
 * one kept from the same source; the file is written whole and readable by its owner only.
 */
export async function addToTrustStore(io: Io, fingerprints: readonly string[], source: string, log?: unknown[]): Promise<{ path: string; added: string[] }> {
  const path = trustFilePath(io);
  const { trusted: entries, logs } = await readTrustFile(io);
  const known = new Set(entries.map((e) => e.fingerprint));
  const added = fingerprints.filter((fingerprint) => !known.has(fingerprint));
  const keptLog = logs.find((k) => k.source === source)?.log;
  const logChanged = log !== undefined && log.length > 0 && JSON.stringify(log) !== JSON.stringify(keptLog);
  if (added.length === 0 && !logChanged) return { path, added };
  const at = io.now().toISOString();
  const next = [...entries, ...added.map((fingerprint) => ({ fingerprint, source, added: at }))];
  const nextLogs = logChanged ? [...logs.filter((k) => k.source !== source), { source, log }] : logs;
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ trusted: next, ...(nextLogs.length ? { logs: nextLogs } : {}) }, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
  return { path, added };
}
