// `npm run rotate-key`: retires the local server's signing key for a new one (trust.md §3).
import { resolve } from 'node:path';
import { lockDataDir } from './dataDirLock';
import { rotateKey } from './keyFiles';

const dataDir = resolve(process.env.ARBITER_DATA_DIR ?? '.arbiter-data');
const lock = lockDataDir(dataDir);
if ('heldBy' in lock) {
  console.error(`Arbiter could not rotate its key: a server (pid ${lock.heldBy}) is using ${dataDir}; stop it first, rotate, then start it again`);
  process.exit(1);
}
try {
  const { previous, next, n } = rotateKey(dataDir, new Date().toISOString());
  console.log(`Signing key rotated (key log statement ${n}, signed by the old key).`);
  console.log(`  retired: ${previous}`);
  console.log(`  current: ${next}`);
  console.log('Verifiers that pinned the retired fingerprint accept the new key through the key log that every export carries;');
  console.log('publish the new fingerprint for those who pin it from now on.');
} catch (error) {
  console.error(`Arbiter could not rotate its key: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  lock.release();
}
