import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../../domain/trust/fingerprint';
import { buildKeyRotation } from '../../../domain/trust/keyRotation';
import { generateSigningKey, publicJwkOf, signWith } from '../../../functions/application/signer';
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
});
