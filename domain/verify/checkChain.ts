import { commitHash, GENESIS_PREV_HASH, publicKeyOf, signatureIsValid, type Ed25519PublicJwk } from '../fairness/hashChain';
import { noProgress, type CheckProgress } from './checkProgress';
import type { ExportBundle, Fail } from './exportBundle';
import { messageOf, shown } from './shown';

/**
 * fairness-v1 §7.1 for every commit, well-formed or not: seq contiguity, the prevHash
 * links, every hash and signature (against the export's own keys: whether those keys
 * are trusted is trust.md's question), and that nothing follows GameSealed.
 * Gives the seq of the GameSealed commit, 0 when there is none.
 */
export function checkChain(bundle: ExportBundle, fail: Fail, progress: CheckProgress = noProgress): number {
  const keys = new Map(bundle.keys.keys.map((k) => [k.kid, publicKeyOf(k as Ed25519PublicJwk)]));
  const commits = bundle.commits as unknown[];
  let sealedAt = 0;
  commits.forEach((raw, index) => {
    const seq = index + 1;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return; // reported as structure
    const commit = raw as Record<string, unknown>;
    if (commit.seq !== seq) fail(seq, 'sequence', `expected seq ${seq}, found ${shown(commit.seq)}`);
    if (commit.gameId !== bundle.gameId) fail(seq, 'gameId', `commit belongs to ${shown(commit.gameId)}`);
    const previous = commits[index - 1] as Record<string, unknown> | null | undefined;
    const expectedPrev = index === 0 ? GENESIS_PREV_HASH : previous?.hash;
    if (commit.prevHash !== expectedPrev) fail(seq, 'prevHash', 'does not link to the previous commit');
    let hash: string | undefined;
    try {
      hash = commitHash(commit as never);
    } catch (error) {
      fail(seq, 'hash', `cannot canonicalize the record: ${messageOf(error)}`);
    }
    if (hash !== undefined && hash !== commit.hash) fail(seq, 'hash', 'the record does not hash to its "hash"');
    const key = typeof commit.kid === 'string' ? keys.get(commit.kid) : undefined;
    if (!key) fail(seq, 'signature', `no Ed25519 public key ${shown(commit.kid)} in the bundle`);
    else if (!signatureIsValid(commit.hash as string, commit.signature as string, key)) fail(seq, 'signature', 'the signature does not match the hash');
    if (sealedAt) fail(seq, 'sealed', `a commit follows GameSealed at seq ${sealedAt}`);
    if (Array.isArray(commit.events) && commit.events.some((e) => e?.type === 'GameSealed')) sealedAt = seq;
    progress('chain', seq, commits.length);
  });
  return sealedAt;
}
