/* The proof's test module (clients/java/proof/module) packed as VASSAL reads a module. */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const module = join(dirname(fileURLToPath(import.meta.url)), 'module');

/** The test module: its buildFile.xml and moduledata in a .vmod (a zip), written to `file`. */
export function packModule(file) {
  mkdirSync(dirname(file), { recursive: true });
  rmSync(file, { force: true });
  const result = spawnSync('jar', ['cfM', file, '-C', module, 'buildFile.xml', '-C', module, 'moduledata'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) throw new Error(`writing the module failed: ${result.error?.message ?? ''}${result.stdout ?? ''}${result.stderr ?? ''}`);
  return file;
}
