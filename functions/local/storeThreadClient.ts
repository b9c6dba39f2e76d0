import * as dynamodb from '@aws-sdk/client-dynamodb';
import { DynamoDBClient, DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import { Worker } from 'node:worker_threads';

/** Messages to the store's thread (storeThread.ts). */
export type ToStore = { kind: 'send'; id: number; command: string; input: unknown } | { kind: 'close' };
/** Messages from it. */
export type FromStore =
  | { kind: 'ready' }
  | { kind: 'failed'; message: string }
  | { kind: 'output'; id: number; output: unknown }
  | { kind: 'error'; id: number; error: Record<string, unknown> }
  | { kind: 'closed'; message?: string };

interface Waiting {
  resolve(output: unknown): void;
  reject(error: Error): void;
}

/**
 * A DynamoDB client whose calls are answered by the embedded store on a thread of its own
 * (storeThread.ts). Each call leaves this thread as its command's name and input, before
 * the SDK serializes or signs anything, and comes back as the output or the error the SDK
 * gave there (the same exception class, so `instanceof` holds). The service's thread does
 * its own work and the store's thread the store's, as on AWS, where DynamoDB answers from
 * elsewhere. No port, no socket.
 */
export class StoreThread {
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 0;
  private gone?: Error;
  private closing?: Promise<void>;
  private onClosed?: (message?: string) => void;

  private constructor(
    private readonly worker: Worker,
    readonly client: DynamoDBClient,
    private readonly onLost?: (error: Error) => void,
  ) {
    worker.on('message', (message: FromStore) => {
      if (message.kind === 'output' || message.kind === 'error') {
        const waiting = this.waiting.get(message.id);
        this.waiting.delete(message.id);
        if (this.waiting.size === 0) worker.unref();
        if (message.kind === 'output') waiting?.resolve(message.output);
        else waiting?.reject(sdkError(message.error));
      } else if (message.kind === 'closed') this.onClosed?.(message.message);
    });
    worker.on('error', (error) => this.fail(error.name));
    worker.on('exit', (code) => this.fail(`exit code ${code}`));
    // Every call goes as it is: serializing, signing and retries are the work of the client on the store's thread.
    // So no middleware runs here: middleware added to this client is never called.
    client.send = ((command: { input: unknown; constructor: { name: string } }) => this.send(command.constructor.name, command.input)) as never;
  }

  /**
   * Starts the thread and opens the store there: LevelDB under `path`, or in memory.
   * `onLost` hears of the thread ending other than by close() (an error in the store), with
   * the error the calls fail with from then on.
   */
  static async start(path: string | undefined, onLost?: (error: Error) => void): Promise<StoreThread> {
    const worker = new Worker(new URL('./storeThread.mjs', import.meta.url), { workerData: { entry: './storeThread.ts', path } });
    await new Promise<void>((resolve, reject) => {
      const first = (message: FromStore) => {
        worker.off('message', first);
        worker.off('error', reject);
        if (message.kind === 'ready') return resolve();
        void worker.terminate();
        reject(new Error(`the embedded store did not open: ${message.kind === 'failed' ? message.message : message.kind}`));
      };
      worker.on('message', first);
      worker.once('error', reject);
    });
    worker.unref();
    // A client in name and type only: its send() posts to the store's thread (above).
    const client = new DynamoDBClient({ endpoint: 'http://embedded.invalid', region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    return new StoreThread(worker, client, onLost);
  }

  private send(command: string, input: unknown): Promise<unknown> {
    if (this.gone || this.closing) return Promise.reject(this.gone ?? storeClosed());
    const id = ++this.nextId;
    return new Promise((resolve, reject) => {
      // The thread keeps the process alive only while a call waits on it.
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ kind: 'send', id, command, input } satisfies ToStore);
    });
  }

  /** Closes the store (LevelDB written and unlocked) once the calls already sent are answered, then ends the thread. */
  close(): Promise<void> {
    return (this.closing ??= (async () => {
      this.client.destroy();
      if (this.gone) return;
      this.worker.ref();
      const message = await new Promise<string | undefined>((resolve) => {
        this.onClosed = resolve;
        this.worker.postMessage({ kind: 'close' } satisfies ToStore);
      });
      this.onClosed = undefined;
      await this.worker.terminate();
      if (message) throw new Error(`the embedded store did not close cleanly: ${message}`);
    })());
  }

  /** The thread has ended: every call waiting, and every call after, fails as a store that cannot be reached (a 503, never a 500). */
  private fail(reason: string): void {
    if (this.gone) return;
    this.gone = this.closing ? storeClosed() : storeLost(reason);
    for (const waiting of this.waiting.values()) waiting.reject(this.gone);
    this.waiting.clear();
    this.onClosed?.(reason);
    if (!this.closing) this.onLost?.(this.gone);
  }
}

/** The SDK's exception classes by name. */
const exceptions = new Map<string, new (options: Record<string, unknown>) => Error>();
for (const [name, value] of Object.entries(dynamodb)) {
  if (typeof value === 'function' && value.prototype instanceof DynamoDBServiceException) exceptions.set(name, value as never);
}

/** The error as the SDK raised it on the store's thread: the same class, so `instanceof ConditionalCheckFailedException` holds here. */
function sdkError(plain: Record<string, unknown>): Error {
  const Exception = exceptions.get(String(plain.name));
  return Exception ? new Exception(plain) : Object.assign(new Error(String(plain.message)), plain);
}

function storeClosed(): Error {
  return Object.assign(new Error('the embedded store is closed'), { name: 'StoreClosed', code: 'ECONNREFUSED' });
}

/** With the kind of its cause only (an error's name, an exit code): the store's own messages may quote what it holds. */
function storeLost(reason: string): Error {
  return Object.assign(new Error(`the embedded store stopped (${reason})`), { name: 'StoreClosed', code: 'ECONNREFUSED' });
}
