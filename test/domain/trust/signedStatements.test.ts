import { createHash, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildGameHead } from '../../../domain/trust/gameHead';
import { buildKeyRotation } from '../../../domain/trust/keyRotation';
import { statementHash, statementProblem } from '../../../domain/trust/signedStatement';
import { newKey } from '../../domain/verify/signedExports';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const signedBy = (hash: string, signature: string, x: string) =>
  verify(null, Buffer.from(hash, 'hex'), { key: { kty: 'OKP', crv: 'Ed25519', x }, format: 'jwk' }, Buffer.from(signature, 'base64'));

const LAST = 'ab'.repeat(32);
const AT = '2026-11-22T10:00:00.000Z';

describe('buildGameHead (trust.md §4)', () => {
  it('hashes the RFC 8785 form without hash and signature, and signs the raw 32 bytes of the hash', () => {
    const key = newKey('k1');
    const head = buildGameHead({ gameId: 'g-1', seq: 41, lastHash: LAST, sealed: true, at: AT, kid: 'k1' }, key.sign);
    const canonical = `{"at":"${AT}","gameId":"g-1","kid":"k1","lastHash":"${LAST}","sealed":true,"seq":41,"type":"GameHead"}`;
    expect(head).toEqual({ type: 'GameHead', gameId: 'g-1', seq: 41, lastHash: LAST, sealed: true, at: AT, kid: 'k1', hash: sha256(canonical), signature: expect.any(String) });
    expect(signedBy(head.hash, head.signature, key.jwk.x)).toBe(true);
    expect(statementHash(head)).toBe(head.hash);
    expect(statementProblem(head, key.jwk)).toBeUndefined();
  });

  it('no longer holds once any member changes, even re-hashed, or under another key', () => {
    const key = newKey('k1');
    const head = buildGameHead({ gameId: 'g-1', seq: 41, lastHash: LAST, sealed: true, at: AT, kid: 'k1' }, key.sign);
    expect(statementProblem({ ...head, seq: 40 }, key.jwk)).toBe('does not hash to its "hash"');
    const rehashed = { ...head, seq: 40 };
    rehashed.hash = statementHash(rehashed);
    expect(statementProblem(rehashed, key.jwk)).toBe('is not signed by its key: the signature does not match the hash');
    expect(statementProblem(head, newKey('k1').jwk)).toBe('is not signed by its key: the signature does not match the hash');
  });
});

describe('buildKeyRotation (trust.md §3)', () => {
  it('records the previous fingerprint and the next key (kty, crv, x, kid only), signed by the previous key', () => {
    const a = newKey('a');
    const b = newKey('b');
    const statement = buildKeyRotation({ n: 1, previous: a.fingerprint, next: { ...b.jwk, use: 'sig', status: 'current' } as typeof b.jwk, at: AT }, a.sign);
    const canonical = `{"at":"${AT}","n":1,"next":{"crv":"Ed25519","kid":"b","kty":"OKP","x":"${b.jwk.x}"},"previous":"${a.fingerprint}","type":"KeyRotation"}`;
    expect(statement).toEqual({ type: 'KeyRotation', n: 1, previous: a.fingerprint, next: { kty: 'OKP', crv: 'Ed25519', x: b.jwk.x, kid: 'b' }, at: AT, hash: sha256(canonical), signature: expect.any(String) });
    expect(signedBy(statement.hash, statement.signature, a.jwk.x)).toBe(true);
    expect(statementProblem(statement, a.jwk)).toBeUndefined();
    expect(statementProblem(statement, b.jwk)).toMatch(/not signed by its key/);
  });

  it('refuses to vouch for what cannot be canonicalized', () => {
    const a = newKey('a');
    const statement = buildKeyRotation({ n: 1, previous: a.fingerprint, next: { x: a.jwk.x, kid: 'a' }, at: AT }, a.sign);
    expect(statementProblem({ ...statement, at: 'bad \ud800' }, a.jwk)).toMatch(/^cannot be canonicalized/);
  });
});
