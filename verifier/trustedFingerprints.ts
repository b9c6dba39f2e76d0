import { parseStrictJson } from '../domain/json/parseStrictJson';
import { isCanonicalX } from '../domain/fairness/hashChain';
import { fingerprintOf, isFingerprint } from '../domain/trust/fingerprint';
import { readFileText, UnusableInput } from './readSource';

/** Trust files are small; anything bigger is not one. */
const MAX_TRUST_FILE_BYTES = 1024 * 1024;

export interface ListedKey {
  fingerprint: string;
  kid?: string;
  status?: string;
}

/**
 * The keys of a GET /keys document (trust.md §2). A fingerprint is computed from the
 * key itself; one the document states must agree with it.
 */
export function keysOfDocument(document: unknown, name: string): ListedKey[] {
  const keys = (document as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw new UnusableInput(`${name} has no "keys" list`);
  return keys.map((entry: unknown, i) => {
    const key = (entry ?? {}) as { x?: unknown; kid?: unknown; status?: unknown; fingerprint?: unknown };
    const stated = key.fingerprint;
    let fingerprint: string;
    if (typeof key.x === 'string') {
      if (!isCanonicalX(key.x)) throw new UnusableInput(`${name}: key ${i + 1} is not an Ed25519 public key written as RFC 8037 asks (43 base64url characters)`);
      fingerprint = fingerprintOf({ x: key.x });
      if (stated !== undefined && stated !== fingerprint) {
        throw new UnusableInput(`${name}: key ${i + 1} states the fingerprint ${JSON.stringify(stated)}, but its public key has ${fingerprint}`);
      }
    } else if (isFingerprint(stated)) {
      fingerprint = stated;
    } else {
      throw new UnusableInput(`${name}: key ${i + 1} has neither a public key "x" nor a fingerprint`);
    }
    return {
      fingerprint,
      ...(typeof key.kid === 'string' ? { kid: key.kid } : {}),
      ...(typeof key.status === 'string' ? { status: key.status } : {}),
    };
  });
}

/**
 * The fingerprints a --trust-file lists: a JSON array of fingerprints, a /keys
 * document saved earlier (every key in it), or a trust file written by `trust add`.
 */
export function fingerprintsOfTrustDocument(document: unknown, name: string): string[] {
  if (Array.isArray(document)) {
    return document.map((entry: unknown, i) => {
      if (!isFingerprint(entry)) throw new UnusableInput(`${name}: entry ${i + 1} is not a fingerprint like ed25519:<43 characters>`);
      return entry;
    });
  }
  const trusted = (document as { trusted?: unknown } | null)?.trusted;
  if (Array.isArray(trusted)) return keysOfDocument({ keys: trusted }, name).map((k) => k.fingerprint);
  if (Array.isArray((document as { keys?: unknown } | null)?.keys)) return keysOfDocument(document, name).map((k) => k.fingerprint);
  throw new UnusableInput(`${name} is neither a JSON array of fingerprints nor a /keys document`);
}

/**
 * The key logs a trust document carries, for the retirements they state (trust.md §6):
 * a /keys document's `log`, or those a trust file written by `trust add` keeps.
 */
export function keyLogsOfTrustDocument(document: unknown): unknown[] {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) return [];
  const { log, logs } = document as { log?: unknown; logs?: unknown };
  if (Array.isArray(log)) return [log];
  if (Array.isArray(logs)) return logs.map((kept: unknown) => (kept as { log?: unknown } | null)?.log).filter(Array.isArray);
  return [];
}

export async function readTrustDocument(path: string): Promise<unknown> {
  const text = await readFileText(path, MAX_TRUST_FILE_BYTES);
  try {
    return parseStrictJson(text);
  } catch (error) {
    throw new UnusableInput(`${JSON.stringify(path)} is not valid JSON: ${(error as Error).message}`);
  }
}
