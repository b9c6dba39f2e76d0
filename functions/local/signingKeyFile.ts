import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSigningKey, type StoredSigningKey } from '../application/signer';

/** The local server's Ed25519 key: generated into the data directory on first start, owner-only. */
export function loadOrCreateSigningKey(dataDir: string): { key: StoredSigningKey; created: boolean } {
  const file = join(dataDir, 'signing-key.json');
  if (existsSync(file)) return { key: JSON.parse(readFileSync(file, 'utf8')) as StoredSigningKey, created: false };
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const key = generateSigningKey();
  writeFileSync(file, JSON.stringify(key), { mode: 0o600, flag: 'wx' });
  return { key, created: true };
}
