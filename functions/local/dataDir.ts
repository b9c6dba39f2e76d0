import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The most entries `sealDataDir` walks: a data directory holds a LevelDB and a few files. */
const MAX_ENTRIES = 100_000;

/**
 * The data directory and everything in it for this user only (0700 folders, 0600
 * files), whatever mode it was created with: it holds the signing key, the seed key
 * and the store.
 */
export function sealDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const folders = [dataDir];
  let seen = 0;
  while (folders.length > 0 && seen < MAX_ENTRIES) {
    const folder = folders.pop()!;
    chmodSync(folder, 0o700);
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (++seen > MAX_ENTRIES) break;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) folders.push(path);
      else if (entry.isFile()) chmodSync(path, 0o600);
    }
  }
}

/** A JSON file of this user's only, created on first use (never overwritten). */
export function ownerOnlyJson<T>(file: string, create: () => T): { value: T; created: boolean } {
  if (existsSync(file)) {
    if (statSync(file).mode & 0o077) chmodSync(file, 0o600);
    return { value: JSON.parse(readFileSync(file, 'utf8')) as T, created: false };
  }
  const value = create();
  writeFileSync(file, JSON.stringify(value), { mode: 0o600, flag: 'wx' });
  return { value, created: true };
}
