import type { KMSClient } from '@aws-sdk/client-kms';
import { fingerprintOf } from '../../domain/trust/fingerprint';
import { keyRotationDraft, type KeyRotation } from '../../domain/trust/keyRotation';
import { signStatementLater } from '../../domain/trust/signedStatement';
import type { KeyRingStore } from '../store/keyRingStore';
import { kmsPublicKey, kmsSigner } from './kmsSigner';

/**
 * How long after the rotation is written the old key may still sign: a warm container
 * reads the key ring again at most once a minute (KEY_RING_REFRESH_MS in lambdaService.ts),
 * and a command it took before then finishes within the function's 10 s timeout. The
 * statement's `at` is this much later than the rotation, so that nothing the old key
 * honestly signs comes after its retirement (trust.md §6).
 */
export const RETIREMENT_GRACE_MS = 90_000;

/**
 * Rotates the deployed signing key (trust.md §3): `to`, a KMS key the stack created (and
 * granted to the signing function), becomes current; a KeyRotation statement signed by the
 * current key through KMS joins the log; the old public key is kept as retired.
 */
export async function rotateKmsKey(
  kms: KMSClient,
  rings: KeyRingStore,
  options: { initialKeyId: string; to: string; at: string },
): Promise<{ previous: string; next: string; n: number; retiredAt: string }> {
  const ring = await rings.read(options.initialKeyId);
  if (ring.currentKeyId === options.to) throw new Error(`${options.to} is already the current key`);
  const oldSigner = await kmsSigner(kms, ring);
  const [old] = oldSigner.publicJwks();
  const fresh = await kmsPublicKey(kms, options.to);
  if (fresh.x === old.x || ring.retired.some((r) => r.x === fresh.x)) throw new Error('that key has signed for this service before: rotate to a new key');
  const retiredAt = new Date(Date.parse(options.at) + RETIREMENT_GRACE_MS).toISOString();
  const statement: KeyRotation = await signStatementLater(keyRotationDraft({ n: ring.log.length + 1, previous: fingerprintOf(old), next: fresh, at: retiredAt }), oldSigner.sign);
  await rings.write({ currentKeyId: options.to, retired: [...ring.retired, { kid: old.kid, x: old.x }], log: [...ring.log, statement] });
  return { previous: statement.previous, next: fingerprintOf(fresh), n: statement.n, retiredAt };
}
