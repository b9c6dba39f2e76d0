import { chmodSync, closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';

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
  writeOwnerOnlyJson(file, value);
  return { value, created: true };
}

/**
 * Writes a file whole or not at all, even across a crash or a power loss: a temporary
 * file first, flushed to disk, renamed over the old one, and the folder flushed.
 */
export function writeOwnerOnlyJson(file: string, value: unknown): void {
  const temporary = `${file}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, JSON.stringify(value));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  const folder = openSync(dirname(file), 'r');
  try {
    fsyncSync(folder);
  } finally {
    closeSync(folder);
  }
}
