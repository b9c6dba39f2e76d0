import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprintOf } from '../../domain/trust/fingerprint';
import { buildKeyRotation, type KeyRotation } from '../../domain/trust/keyRotation';
import { newSeedKey } from '../application/seedVault';
import { generateSigningKey, publicJwkOf, RetiredKeyError, retiredKeyProblem, signWith, type KeyRing, type StoredSigningKey } from '../application/signer';
import { ownerOnlyJson, writeOwnerOnlyJson } from './dataDir';

/**
 * The local server's keys, owner-only in its data directory:
 * - signing-key.json: the current Ed25519 private key, generated on first start;
 * - key-history.json: the retired public keys and the key log (trust.md §3);
 * - retired/<kid>.json: each retired private key, archived for the operator; the server
 *   never loads them (trust.md §6);
 * - seed-key.json: the key that encrypts server seeds at rest.
 */
const files = (dataDir: string) => ({
  current: join(dataDir, 'signing-key.json'),
  next: join(dataDir, 'signing-key.next.json'),
  history: join(dataDir, 'key-history.json'),
  archive: join(dataDir, 'retired'),
});

interface KeyHistory {
  retired: { kid: string; x: string }[];
  log: KeyRotation[];
}

/** The signing key: generated into the data directory on first start. */
export function loadOrCreateSigningKey(dataDir: string): { key: StoredSigningKey; created: boolean } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  finishRotation(dataDir);
  const { value, created } = ownerOnlyJson(files(dataDir).current, generateSigningKey);
  return { key: value, created };
}

/**
 * The current key with the keys it replaced and the statements that replaced them.
 * Throws RetiredKeyError when signing-key.json holds a key the history retired (a backup
 * restored over it): the server never signs with a retired key (trust.md §6).
 */
export function loadKeyRing(dataDir: string): { ring: KeyRing; created: boolean } {
  const { key, created } = loadOrCreateSigningKey(dataDir);
  const ring = { current: key, ...readHistory(dataDir) };
  const problem = retiredKeyProblem(publicJwkOf(key).x, ring);
  if (problem) throw new RetiredKeyError(`${problem} (${files(dataDir).current}); put back the key the last key log statement hands over to`);
  return { ring, created };
}

/**
 * Retires the current key for a new one: appends a KeyRotation signed by the old key
 * (trust.md §3), so that a verifier who pinned the old fingerprint accepts the new key.
 * Crash-safe: the new key is written aside first, the log next, and the new key takes
 * its place last (finishRotation completes a rotation the log already names).
 */
export function rotateKey(dataDir: string, at: string): { previous: string; next: string; n: number; retiredAt: string } {
  if (!existsSync(files(dataDir).current)) throw new Error(`${dataDir} has no signing key yet: start the server once, then rotate`);
  const { ring } = loadKeyRing(dataDir);
  const old = publicJwkOf(ring.current);
  const replacement = generateSigningKey();
  const fresh = publicJwkOf(replacement);
  const f = files(dataDir);
  writeOwnerOnlyJson(f.next, replacement);
  mkdirSync(f.archive, { recursive: true, mode: 0o700 });
  writeOwnerOnlyJson(join(f.archive, `${ring.current.kid}.json`), ring.current);
  const statement = buildKeyRotation({ n: ring.log.length + 1, previous: fingerprintOf(old), next: { x: fresh.x, kid: fresh.kid }, at }, signWith(ring.current));
  writeOwnerOnlyJson(f.history, { retired: [...ring.retired, { kid: old.kid, x: old.x }], log: [...ring.log, statement] } satisfies KeyHistory);
  renameSync(f.next, f.current);
  syncFolder(dataDir);
  return { previous: statement.previous, next: fingerprintOf(fresh), n: statement.n, retiredAt: at };
}

export function loadOrCreateSeedKey(dataDir: string): Buffer {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const { value } = ownerOnlyJson(join(dataDir, 'seed-key.json'), () => ({ key: newSeedKey().toString('base64') }));
  return Buffer.from(value.key, 'base64');
}

/** The key the tokens of a creation sent with an Idempotency-Key are derived from (tokenMinter.ts). */
export function loadOrCreateTokenKey(dataDir: string): Buffer {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const { value } = ownerOnlyJson(join(dataDir, 'token-key.json'), () => ({ key: randomBytes(32).toString('base64') }));
  return Buffer.from(value.key, 'base64');
}

function readHistory(dataDir: string): KeyHistory {
  const file = files(dataDir).history;
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as KeyHistory) : { retired: [], log: [] };
}

/** A rotation stopped half-way: the new key takes over if the log names it, and is dropped if not. */
function finishRotation(dataDir: string): void {
  const f = files(dataDir);
  if (!existsSync(f.next)) return;
  const next = JSON.parse(readFileSync(f.next, 'utf8')) as StoredSigningKey;
  const named = readHistory(dataDir).log.at(-1)?.next.x === publicJwkOf(next).x;
  if (named) renameSync(f.next, f.current);
  else rmSync(f.next);
  syncFolder(dataDir);
}

function syncFolder(folder: string): void {
  const fd = openSync(folder, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
