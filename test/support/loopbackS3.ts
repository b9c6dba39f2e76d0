import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BlobStore } from '../../functions/store/blobStore';

interface S3rverInstance {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  httpServer?: { closeAllConnections(): void };
}

/** The credentials s3rver knows (its only account); it checks the key id, not the Signature Version 4 itself. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * For tests of the S3 adapter against a real S3 server: s3rver (from npm) on a loopback
 * ephemeral port, its files in a temporary folder removed on close, with the given buckets.
 * The local server never listens like this (its s3rver answers in process: embeddedS3.ts).
 */
export async function startLoopbackS3(buckets: readonly string[] = ['arbiter-exports']) {
  const S3rver = createRequire(import.meta.url)('s3rver') as new (options: unknown) => S3rverInstance;
  const directory = mkdtempSync(join(tmpdir(), 'arbiter-s3rver-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, vhostBuckets: false, directory, configureBuckets: buckets.map((name) => ({ name, configs: [] })) });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    directory,
    close: async () => {
      // fetch keeps its connections alive: close them, or close() waits for them.
      server.httpServer?.closeAllConnections();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * s3rver acknowledges a PUT when the bytes are handed to its file stream, before they are on
 * disk (S3 reads what it acknowledged): before reading an object just written, wait until the
 * size it reports is the size written. Bounded: 200 looks, 10 ms apart.
 */
export async function untilStored(store: BlobStore, key: string, bytes: number): Promise<void> {
  for (let look = 0; look < 200; look++) {
    if ((await store.size(key)) === bytes) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${key} never reached ${bytes} bytes in s3rver`);
}
