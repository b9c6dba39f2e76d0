import type { BlobUpload, JobBlobStore } from '../../functions/ports/blobStore';
import { isBlobKey } from '../../functions/store/blobStore';

/**
 * An export store in memory that records what it is asked (`size <key>`, `put <key>`, `read <key>`,
 * `upload <key>`, `part <key> <bytes>`, `complete <key>`, `abort <key>`); `fail` makes those calls throw.
 * Parts are `partBytes` long, as S3's multipart upload takes them.
 */
export function memoryBlobs(fail: Partial<Record<'size' | 'put' | 'read' | 'upload' | 'part', Error>> = {}, partBytes = 64 * 1024) {
  const objects = new Map<string, Buffer>();
  const calls: string[] = [];
  const checked = (key: string) => {
    if (!isBlobKey(key)) throw new Error(`not an export key: ${key}`);
    return key;
  };
  const store: JobBlobStore = {
    size: async (key) => {
      calls.push(`size ${key}`);
      if (fail.size) throw fail.size;
      return objects.get(key)?.length;
    },
    put: async (key, body) => {
      calls.push(`put ${key}`);
      if (fail.put) throw fail.put;
      objects.set(checked(key), Buffer.from(body));
    },
    read: async (key) => {
      calls.push(`read ${key}`);
      if (fail.read) throw fail.read;
      return objects.get(key);
    },
    upload: async (key): Promise<BlobUpload> => {
      calls.push(`upload ${key}`);
      if (fail.upload) throw fail.upload;
      checked(key);
      const parts: Buffer[] = [];
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = () => {
        calls.push(`part ${key} ${pendingBytes}`);
        if (fail.part) throw fail.part;
        parts.push(Buffer.concat(pending));
        pending = [];
        pendingBytes = 0;
      };
      return {
        write: async (bytes) => {
          pending.push(Buffer.from(bytes));
          pendingBytes += bytes.byteLength;
          if (pendingBytes >= partBytes) flush();
        },
        complete: async () => {
          if (pendingBytes > 0 || parts.length === 0) flush();
          calls.push(`complete ${key}`);
          const whole = Buffer.concat(parts);
          objects.set(key, whole);
          return whole.length;
        },
        abort: async () => {
          calls.push(`abort ${key}`);
        },
      };
    },
    link: async (key, seconds) => `https://blobs.example.test/${key}?expires=${seconds}`,
  };
  return { store, objects, calls };
}
