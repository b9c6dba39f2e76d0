// `npm start`: the API on http://127.0.0.1:8787 with the embedded DynamoDB.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { resolve } from 'node:path';
import { loadOrCreateSigningKey } from './signingKeyFile';
import { startLocalService } from './localService';

const port = Number(process.env.PORT ?? 8787);
const host = process.env.HOST ?? '127.0.0.1';
const dataDir = resolve(process.env.ARBITER_DATA_DIR ?? '.arbiter-data');

const { key, created } = loadOrCreateSigningKey(dataDir);
const local = await startLocalService({ dataDir, signingKey: key, port, host });
console.log(`Arbiter listening on ${local.url}`);
console.log(`  data: ${dataDir}${created ? ' (new signing key generated)' : ''}; signing key id ${key.kid}`);
console.log('  try: curl -s http://127.0.0.1:' + local.port + '/rulesets');

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  await local.close();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
