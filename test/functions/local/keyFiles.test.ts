import { copyFileSync, existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../../domain/trust/fingerprint';
import { buildKeyRotation } from '../../../domain/trust/keyRotation';
import { generateSigningKey, publicJwkOf, RetiredKeyError, signerFromKeyRing, signWith } from '../../../functions/application/signer';
import { writeOwnerOnlyJson } from '../../../functions/local/dataDir';
import { loadKeyRing, loadOrCreateSigningKey, rotateKey } from '../../../functions/local/keyFiles';

const newDataDir = () => mkdtempSync(join(tmpdir(), 'arbiter-keys-'));
const AT = '2026-11-23T10:00:00.000Z';

describe('the local key files', () => {
  it('refuse to rotate a data directory that has no key yet, creating none', () => {
    const dataDir = newDataDir();
    expect(() => rotateKey(dataDir, AT)).toThrow(/no signing key yet/);
    expect(existsSync(join(dataDir, 'signing-key.json'))).toBe(false);
  });

  it('drop a new key written aside when the rotation stopped before the key log named it', () => {
    const dataDir = newDataDir();
    const { key: old } = loadOrCreateSigningKey(dataDir);
    writeOwnerOnlyJson(join(dataDir, 'signing-key.next.json'), generateSigningKey());
    const { ring } = loadKeyRing(dataDir);
    expect(ring.current).toEqual(old);
    expect(ring.log).toEqual([]);
    expect(existsSync(join(dataDir, 'signing-key.next.json'))).toBe(false);
  });

  it('finish a rotation that stopped after the key log named the new key, before it took its place', () => {
    const dataDir = newDataDir();
    const { key: old } = loadOrCreateSigningKey(dataDir);
    const replacement = generateSigningKey();
    const fresh = publicJwkOf(replacement);
    writeOwnerOnlyJson(join(dataDir, 'signing-key.next.json'), replacement);
    const statement = buildKeyRotation({ n: 1, previous: fingerprintOf(publicJwkOf(old)), next: fresh, at: AT }, signWith(old));
    writeOwnerOnlyJson(join(dataDir, 'key-history.json'), { retired: [{ kid: old.kid, x: publicJwkOf(old).x }], log: [statement] });
    const { ring } = loadKeyRing(dataDir);
    expect(ring.current).toEqual(replacement);
    expect(ring.log).toEqual([statement]);
    expect(JSON.parse(readFileSync(join(dataDir, 'signing-key.json'), 'utf8'))).toEqual(replacement);
  });

  it('rotate twice into a log of two statements, each signed by the key it retires', () => {
    const dataDir = newDataDir();
    const first = publicJwkOf(loadOrCreateSigningKey(dataDir).key);
    const one = rotateKey(dataDir, AT);
    const two = rotateKey(dataDir, AT);
    expect(one.previous).toBe(fingerprintOf(first));
    expect(two.previous).toBe(one.next);
    const { ring } = loadKeyRing(dataDir);
    expect(ring.log.map((s) => [s.n, s.previous])).toEqual([[1, one.previous], [2, two.previous]]);
    expect(fingerprintOf(publicJwkOf(ring.current))).toBe(two.next);
    expect(ring.retired.map((k) => fingerprintOf(k))).toEqual([one.previous, two.previous]);
  });

  it('archive the retired private key, owner-only, where the server never loads it (trust.md §6)', () => {
    const dataDir = newDataDir();
    const { key: old } = loadOrCreateSigningKey(dataDir);
    rotateKey(dataDir, AT);
    const archived = join(dataDir, 'retired', `${old.kid}.json`);
    expect(JSON.parse(readFileSync(archived, 'utf8'))).toEqual(old);
    expect(statSync(archived).mode & 0o777).toBe(0o600);
    expect(statSync(join(dataDir, 'retired')).mode & 0o777).toBe(0o700);
    const { ring } = loadKeyRing(dataDir);
    expect(ring.current.kid).not.toBe(old.kid);
    expect(JSON.stringify(ring)).not.toContain(String(old.jwk.d));
  });

  it('refuse to sign with a retired key put back in signing-key.json (a backup restored after a rotation)', () => {
    const dataDir = newDataDir();
    const backup = join(newDataDir(), 'signing-key.json');
    loadOrCreateSigningKey(dataDir);
    copyFileSync(join(dataDir, 'signing-key.json'), backup);
    const { previous } = rotateKey(dataDir, AT);
    copyFileSync(backup, join(dataDir, 'signing-key.json'));
    expect(() => loadKeyRing(dataDir)).toThrow(RetiredKeyError);
    expect(() => loadKeyRing(dataDir)).toThrow(`the signing key ${previous} is retired (key log statement 1, ${AT})`);
    const restored = JSON.parse(readFileSync(backup, 'utf8'));
    const history = JSON.parse(readFileSync(join(dataDir, 'key-history.json'), 'utf8'));
    expect(() => signerFromKeyRing({ current: restored, ...history })).toThrow(RetiredKeyError);
    expect(() => rotateKey(dataDir, AT)).toThrow(RetiredKeyError);
  });
});
