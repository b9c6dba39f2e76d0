// `npm run rotate-key`: retires the local server's signing key for a new one (trust.md §3).
import { resolve } from 'node:path';
import { rotationReport } from '../application/rotationReport';
import { lockDataDir } from './dataDirLock';
import { rotateKey } from './keyFiles';

const dataDir = resolve(process.env.ARBITER_DATA_DIR ?? '.arbiter-data');
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
