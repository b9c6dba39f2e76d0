import { canonicalJson } from '../canonicalJson';
import { hexOf } from '../crypto/encoding';
import { sha256 } from '../crypto/primitives';
import type { TableDefinition } from './definition';

const HASH = /^sha256:[0-9a-f]{64}$/;

/**
 * What a table is, in one line: 'sha256:' and the lowercase hex SHA-256 of the canonical
 * JSON (RFC 8785) of the parsed definition. Key order and white space do not change it;
 * any cell, label, rule or word does.
 */
export function tableHash(table: TableDefinition): string {
  let hash = hashes.get(table);
  if (hash === undefined) {
    hash = `sha256:${hexOf(sha256(canonicalJson(table)))}`;
    hashes.set(table, hash);
  }
  return hash;
}

/**
 * The hash of each table object, once: a game resolves on the same parsed tables every
 * command, and a table may be 100 KB (a verifier replaying 10,000 commits would hash it
 * 10,000 times). Tables are never changed once parsed.
 */
const hashes = new WeakMap<TableDefinition, string>();

/** 'sha256:' and the first 12 hex digits, for text lines and pages. */
export function shortTableHash(hash: string): string {
  if (!HASH.test(hash)) throw new RangeError(`not a table hash: ${JSON.stringify(hash.slice(0, 80))}`);
  return hash.slice(0, 'sha256:'.length + 12);
}
