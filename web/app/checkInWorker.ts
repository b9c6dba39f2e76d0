// One check of an export in the verifier's worker (verifyWorker.ts), for pages other than the
// verify page: the page's own script holds no verifier code, and the tab stays responsive.
import { VERIFY_WORKER_URL, type VerifyMessage, type VerifyRequest } from './verifyMessages';

/** The worker could not start, broke, or was stopped: a fault here, not of the file. */
export class WorkerFailure extends Error {}

type Progress = Extract<VerifyMessage, { kind: 'progress' }>;
export type CheckAnswer = Exclude<VerifyMessage, { kind: 'progress' }>;

/** Starts a worker, reports its progress, resolves with its answer and stops it; rejects if the worker cannot run. */
export function checkInWorker(request: VerifyRequest, onProgress: (progress: Progress) => void, signal?: AbortSignal): Promise<CheckAnswer> {
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      worker = new Worker(VERIFY_WORKER_URL, { type: 'module', name: 'verify' });
    } catch (error) {
      return reject(new WorkerFailure(`the verifier cannot start in this browser: ${(error as Error).message}`));
    }
    const stop = () => {
      worker.terminate();
      reject(new WorkerFailure('the check was stopped'));
    };
    signal?.addEventListener('abort', stop, { once: true });
    worker.onmessage = (event: MessageEvent<VerifyMessage>) => {
      const message = event.data;
      if (message.kind === 'progress') return onProgress(message);
      signal?.removeEventListener('abort', stop);
      worker.terminate();
      resolve(message);
    };
    worker.onerror = (event) => {
      signal?.removeEventListener('abort', stop);
      worker.terminate();
      reject(new WorkerFailure(`the verifier could not run: ${event.message || 'its script did not load'}`));
    };
    worker.postMessage(request);
  });
}
