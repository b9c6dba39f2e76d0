// `npm run rotate-key`: retires the local server's signing key for a new one (trust.md §3).
import { resolve } from 'node:path';
import { rotationReport } from '../application/rotationReport';
import { lockDataDir } from './dataDirLock';
import { rotateKey } from './keyFiles';
import { readSettings } from '../config/settings';

let dataDir: string;
try {
  const read = readSettings(process.env);
  for (const warning of read.warnings) console.error(`Arbiter: ${warning}`);
  dataDir = resolve(read.settings.dataDir ?? '.arbiter-data');
} catch (error) {
  console.error(`Arbiter could not rotate its key: ${(error as Error).message}`);
  process.exit(1);
}
const lock = lockDataDir(dataDir);
if ('heldBy' in lock) {
  console.error(`Arbiter could not rotate its key: a server (pid ${lock.heldBy}) is using ${dataDir}; stop it first, rotate, then start it again`);
  process.exit(1);
}
try {
  const rotated = rotateKey(dataDir, new Date().toISOString());
  for (const line of rotationReport(rotated, 'Start the server: it signs with the new key from now on.')) console.log(line);
} catch (error) {
  console.error(`Arbiter could not rotate its key: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  lock.release();
}
