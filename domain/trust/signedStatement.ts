import { canonicalJson } from '../canonicalJson';
import { hexOf } from '../crypto/encoding';
import { sha256 } from '../crypto/primitives';
import { signatureIsValid, type Ed25519PublicJwk } from '../fairness/hashChain';

/** What signing needs: the signature (standard base64) of the raw 32 bytes of a SHA-256 hex hash. */
export type SignHash = (hashHex: string) => string;

/**
 * trust.md §3 and §4: hex SHA-256 of the RFC 8785 form of the statement without
 * `hash` and `signature`. Throws CanonicalJsonError for what JCS cannot encode.
 */
export function statementHash(statement: object): string {
  const { hash: _hash, signature: _signature, ...signed } = statement as { hash?: unknown; signature?: unknown };
  return hexOf(sha256(canonicalJson(signed)));
}

/** Adds `hash` and `signature` to an unsigned statement. */
export function signStatement<T extends object>(unsigned: T, sign: SignHash): T & { hash: string; signature: string } {
  const hash = statementHash(unsigned);
  return { ...unsigned, hash, signature: sign(hash) };
}

/** signStatement for a signer that answers later (a key held by a key service). */
export async function signStatementLater<T extends object>(unsigned: T, sign: (hashHex: string) => Promise<string>): Promise<T & { hash: string; signature: string }> {
  const hash = statementHash(unsigned);
  return { ...unsigned, hash, signature: await sign(hash) };
}

/**
 * Why a signed statement does not hold ("does not hash to its \"hash\"", to follow
 * "the head …"), or undefined when it does: its `hash` is the hash of its content and
 * its `signature` is the key's Ed25519 signature of that hash.
 */
export function statementProblem<T extends { hash: string; signature: string }>(statement: T, key: Ed25519PublicJwk): string | undefined {
  let hash: string;
  try {
    hash = statementHash(statement);
  } catch (error) {
    return `cannot be canonicalized: ${(error as Error).message}`;
  }
  if (hash !== statement.hash) return 'does not hash to its "hash"';
  if (!signatureIsValid(statement.hash, statement.signature, key)) return 'is not signed by its key: the signature does not match the hash';
  return undefined;
}
