import * as z from 'zod';
import type { Ed25519PublicJwk } from '../fairness/hashChain';
import { signStatement, type SignHash } from './signedStatement';

/** trust.md §3: key A (`previous`) hands over to key B (`next`), signed by A. */
export interface KeyRotation {
  type: 'KeyRotation';
  n: number;
  previous: string;
  next: Ed25519PublicJwk;
  at: string;
  hash: string;
  signature: string;
}

export const KeyRotationShape = z.object({
  type: z.literal('KeyRotation'),
  n: z.int(),
  previous: z.string(),
  next: z.object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string(), kid: z.string() }),
  at: z.string(),
  hash: z.string(),
  signature: z.string(),
});

export interface KeyRotationDraft {
  /** Position in the log, from 1. */
  n: number;
  /** Fingerprint of the retiring key, which signs. */
  previous: string;
  /** The new key; only kty, crv, x and kid are kept. */
  next: { x: string; kid: string };
  /** ISO-8601, given by the caller. */
  at: string;
}

/** The statement to sign, without `hash` and `signature`. */
export function keyRotationDraft(draft: KeyRotationDraft): Omit<KeyRotation, 'hash' | 'signature'> {
  return {
    type: 'KeyRotation' as const,
    n: draft.n,
    previous: draft.previous,
    next: { kty: 'OKP' as const, crv: 'Ed25519' as const, x: draft.next.x, kid: draft.next.kid },
    at: draft.at,
  };
}

export function buildKeyRotation(draft: KeyRotationDraft, sign: SignHash): KeyRotation {
  return signStatement(keyRotationDraft(draft), sign);
}
