import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { newSeedKey } from '../application/seedVault';
import { generateSigningKey, type StoredSigningKey } from '../application/signer';
import { ownerOnlyJson } from './dataDir';

/** The local server's Ed25519 key: generated into the data directory on first start, owner-only. */
export function loadOrCreateSigningKey(dataDir: string): { key: StoredSigningKey; created: boolean } {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const { value, created } = ownerOnlyJson(join(dataDir, 'signing-key.json'), generateSigningKey);
  return { key: value, created };
}

/** The key that encrypts server seeds at rest, beside the signing key: a copy of the store alone reveals no seed. */
export function loadOrCreateSeedKey(dataDir: string): Buffer {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const { value } = ownerOnlyJson(join(dataDir, 'seed-key.json'), () => ({ key: newSeedKey().toString('base64') }));
  return Buffer.from(value.key, 'base64');
}
