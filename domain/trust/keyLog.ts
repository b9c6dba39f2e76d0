import { publicKeyOf, type Ed25519PublicJwk } from '../fairness/hashChain';
import { fingerprintOf } from './fingerprint';
import { KeyRotationShape } from './keyRotation';
import { statementProblem } from './signedStatement';

/** A key the verifier trusts: pinned by the person, or handed over by a trusted key. */
export interface TrustedKey {
  fingerprint: string;
  /** The public key, once a pinned fingerprint has been matched to one. */
  jwk?: Ed25519PublicJwk;
  /** `pinned`, or the `n` of the key-log statement that made it trusted. */
  via: 'pinned' | number;
}

export interface KeyLogFailure {
  /** The statement's position from 1; 0 when the log itself is not a list. */
  n: number;
  /** To follow "statement <n>": "is numbered 3, not 2". */
  reason: string;
}

export interface KeyLogWalk {
  /** By fingerprint. */
  trusted: Map<string, TrustedKey>;
  /** The `n` of every statement that made a key trusted. */
  used: number[];
  /** The statement that ended the walk. */
  failure?: KeyLogFailure;
}

/**
 * trust.md §3: starting from the pinned fingerprints, each statement in order whose
 * `previous` is trusted and whose signature verifies with that key makes `next`
 * trusted too. The first statement that fails ends the walk. `knownKeys` (the keys an
 * export or a /keys document lists) only give the public key behind a fingerprint:
 * they are never trusted for being there.
 */
export function walkKeyLog(log: unknown, pinned: Iterable<string>, knownKeys: readonly Ed25519PublicJwk[] = []): KeyLogWalk {
  const byFingerprint = new Map<string, Ed25519PublicJwk>();
  for (const jwk of knownKeys) if (publicKeyOf(jwk)) byFingerprint.set(fingerprintOf(jwk), jwk);
  const trusted = new Map<string, TrustedKey>();
  for (const fingerprint of pinned) trusted.set(fingerprint, { fingerprint, jwk: byFingerprint.get(fingerprint), via: 'pinned' });
  const used: number[] = [];
  const walk = (failure?: KeyLogFailure): KeyLogWalk => ({ trusted, used, ...(failure ? { failure } : {}) });

  if (log === undefined) return walk();
  if (!Array.isArray(log)) return walk({ n: 0, reason: 'is not a list' });
  for (const [index, raw] of log.entries()) {
    const n = index + 1;
    const parsed = KeyRotationShape.safeParse(raw);
    if (!parsed.success) return walk({ n, reason: 'is not a KeyRotation statement' });
    const statement = parsed.data;
    if (statement.n !== n) return walk({ n, reason: `is numbered ${statement.n}, not ${n}` });
    const next = { kty: statement.next.kty, crv: statement.next.crv, x: statement.next.x, kid: statement.next.kid };
    if (!publicKeyOf(next)) return walk({ n, reason: 'hands over to a key that is not an Ed25519 public key' });
    const previous = trusted.get(statement.previous);
    const signer = previous?.jwk ?? byFingerprint.get(statement.previous);
    if (!signer) {
      if (previous) return walk({ n, reason: `cannot be checked: no key given has the trusted fingerprint ${statement.previous}` });
      continue; // Signed by a key nobody here trusts or knows: it hands over nothing.
    }
    const problem = statementProblem(raw as { hash: string; signature: string }, signer);
    if (problem) return walk({ n, reason: problem });
    const nextFingerprint = fingerprintOf(next);
    byFingerprint.set(nextFingerprint, next);
    if (!previous) continue;
    previous.jwk ??= signer;
    const already = trusted.get(nextFingerprint);
    if (already) {
      already.jwk ??= next;
      continue;
    }
    trusted.set(nextFingerprint, { fingerprint: nextFingerprint, jwk: next, via: n });
    used.push(n);
  }
  return walk();
}
