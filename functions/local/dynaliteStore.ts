import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { createRequire } from 'node:module';
import { InProcessRequestHandler, type RequestListener } from './inProcessHandler';

interface DynaliteDb {
  lifecycleManager?: { gracefulClose(callback: (error?: Error) => void): void };
  db: { close(callback: (error?: Error) => void): void };
}

export interface DynaliteStore {
  /** dynalite's HTTP request listener, to be called without a socket. */
  listener: RequestListener;
  /** Closes its LevelDB (or drops the memory one). */
  close(): Promise<void>;
}

/**
 * dynalite builds an http.Server around its request handler and closes its LevelDB
 * only through server.close() of a listening server. Its database module is caught as
 * it is created, so that the store can be closed without ever listening.
 */
export function openDynalite(path: string | undefined): DynaliteStore {
  const db = createRequire(import.meta.url)('dynalite/db') as { create: (options: unknown) => DynaliteDb };
  const create = db.create;
  let store: DynaliteDb | undefined;
  db.create = (options) => (store = create(options));
  try {
    const server = dynalite({ ...(path ? { path } : {}), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
    const [listener] = server.listeners('request') as RequestListener[];
    const opened = store;
    if (!opened || !listener) throw new Error('dynalite did not create its store');
    return {
      listener,
      close: () =>
        new Promise<void>((resolve, reject) => {
          const done = (error?: Error) => (error ? reject(error) : resolve());
          if (opened.lifecycleManager) opened.lifecycleManager.gracefulClose(done);
          else opened.db.close(done);
        }),
    };
  } finally {
    db.create = create;
  }
}

/** An SDK client that calls the store's listener directly, on the caller's thread; closing it closes the store. */
export function directClient(store: DynaliteStore): { client: DynamoDBClient; close(): Promise<void> } {
  const handler = new InProcessRequestHandler(store.listener);
  const client = new DynamoDBClient({
    endpoint: 'http://embedded.invalid',
    region: 'local',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    requestHandler: handler as never,
    maxAttempts: 3,
  });
  return {
    client,
    close: () => {
      client.destroy();
      handler.destroy();
      return store.close();
    },
  };
}
