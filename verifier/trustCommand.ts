import { parseStrictJson } from '../domain/json/parseStrictJson';
import { isFingerprint } from '../domain/trust/fingerprint';
import type { Io } from './io';
import { parseArguments, UsageError } from './parseArguments';
import { fetchText, isUrl, MissingFile, UnusableInput } from './readSource';
import { keyLogsOfTrustDocument, keysOfDocument, readTrustDocument, type ListedKey } from './trustedFingerprints';
import { addToTrustStore, readTrustStore, trustFilePath } from './trustStore';

/** `trust add FINGERPRINT|URL|FILE` (FILE: a /keys answer saved earlier), `trust list`. */
export async function trustCommand(args: readonly string[], io: Io): Promise<number> {
  const parsed = parseArguments(args, {});
  const [action, subject, ...extra] = parsed.positionals;
  if (action === 'list' && subject === undefined) return listTrusted(io);
  if (action === 'add' && subject !== undefined && extra.length === 0) {
    if (isUrl(subject)) return addFromServer(subject, io);
    return subject.startsWith('ed25519:') ? addFingerprint(subject, io) : addFromSavedKeys(subject, io);
  }
  throw new UsageError('trust takes "add FINGERPRINT|URL|FILE" or "list"');
}

async function listTrusted(io: Io): Promise<number> {
  const entries = await readTrustStore(io);
  if (entries.length === 0) {
    io.out(`no trusted keys yet (${trustFilePath(io)}): add one with ${io.command} trust add ed25519:… or ${io.command} trust add https://your-server`);
    return 0;
  }
  io.out(`trusted keys (${trustFilePath(io)}):`);
  for (const entry of entries) io.out(`  ${entry.fingerprint}  ${[entry.source, entry.added && `added ${entry.added}`].filter(Boolean).join(', ')}`);
  return 0;
}

async function addFingerprint(fingerprint: string, io: Io): Promise<number> {
  if (!isFingerprint(fingerprint)) throw new UsageError(`a fingerprint looks like ed25519:<43 characters>, not ${JSON.stringify(fingerprint)}`);
  const { path, added } = await addToTrustStore(io, [fingerprint], 'given by hand');
  io.out(added.length ? `now trusting ${fingerprint} (stored in ${path})` : `${fingerprint} was already trusted (${path})`);
  return 0;
}

/** The URL of a server's /keys: given as is, or derived from the server's or a game's URL. */
export function keysUrl(source: string): URL {
  const url = new URL(source);
  const games = url.pathname.indexOf('/games/');
  const base = games >= 0 ? url.pathname.slice(0, games) : url.pathname.replace(/\/+$/, '');
  if (!base.endsWith('/keys')) url.pathname = `${base}/keys`;
  url.search = '';
  url.hash = '';
  return url;
}

/**
 * Trust on first use, as SSH does: fetch /keys once, show every fingerprint, and store
 * every key it lists. The retired keys come on the same footing as the current one (the
 * same answer names them all), and trust only flows forward through the key log: without
 * them, games signed before a rotation could not be checked by someone who pinned after it.
 */
async function addFromServer(source: string, io: Io): Promise<number> {
  let url: URL;
  try {
    url = keysUrl(source);
  } catch {
    throw new UsageError(`${JSON.stringify(source)} is not a URL`);
  }
  const text = await fetchText(url, undefined, 1024 * 1024);
  let document: unknown;
  try {
    document = parseStrictJson(text);
  } catch (error) {
    throw new UnusableInput(`${url.href} did not answer JSON: ${(error as Error).message}`);
  }
  return addKeysDocument(document, url.href, io);
}

/** `trust add keys.json`: a /keys answer saved earlier, taken as addFromServer takes the live one. */
async function addFromSavedKeys(file: string, io: Io): Promise<number> {
  const document = await readTrustDocument(file).catch((error: unknown) => {
    if (error instanceof MissingFile) throw new UsageError(`a fingerprint looks like ed25519:<43 characters>, not ${JSON.stringify(file)}, and there is no saved /keys file by that name`);
    throw error;
  });
  if (!Array.isArray((document as { keys?: unknown } | null)?.keys)) {
    throw new UsageError(`${JSON.stringify(file)} is neither a fingerprint (ed25519:<43 characters>), a URL, nor a saved /keys document`);
  }
  return addKeysDocument(document, file, io);
}

/** Pins every key a /keys document lists, current and retired, and keeps its key log for the retirements it states (trust.md §6). */
async function addKeysDocument(document: unknown, name: string, io: Io): Promise<number> {
  const keys = keysOfDocument(document, name);
  const current = currentKey(keys, name, io.command);
  io.out(`${name} lists ${keys.length} key${keys.length === 1 ? '' : 's'}:`);
  for (const key of keys) io.out(`  ${key.fingerprint}  kid ${key.kid ?? '(none)'}${key.status ? `, ${key.status}` : ''}`);
  const [log] = keyLogsOfTrustDocument(document) as unknown[][];
  const { path, added } = await addToTrustStore(io, keys.map((k) => k.fingerprint), name, log);
  const what = keys.length === 1 ? `the current key ${current.fingerprint}` : `the current key ${current.fingerprint} and ${keys.length - 1} retired key${keys.length === 2 ? '' : 's'}`;
  io.out(`${added.length ? 'now trusting' : 'already trusting'} ${what} (stored in ${path})`);
  if (log?.length) io.out(`kept its key log (${log.length} statement${log.length === 1 ? '' : 's'}): a key it retired is refused for anything signed after its retirement.`);
  io.out('compare the current one with the fingerprint your organizer publishes: whoever answered this request chose it.');
  return 0;
}

function currentKey(keys: readonly ListedKey[], name: string, command: string): ListedKey {
  const current = keys.filter((k) => k.status === 'current');
  if (current.length === 1) return current[0];
  if (current.length === 0 && keys.length === 1 && keys[0].status === undefined) return keys[0];
  throw new UnusableInput(`${name} lists ${current.length || 'no'} current key${current.length === 1 ? '' : 's'} among ${keys.length}: pin one by hand with ${command} trust add ed25519:…`);
}
