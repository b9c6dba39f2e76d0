// Starts storeThread.ts in a worker thread: worker threads do not inherit the TypeScript
// loader of the process that starts them.
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.entry, import.meta.url);
