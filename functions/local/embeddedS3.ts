import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { EXPORT_RETENTION_DAYS, isBlobKey } from '../store/blobStore';
import { S3BlobStore, type S3Transport } from '../store/s3BlobStore';
import { sealDataDir } from './dataDir';
import { call, inProcessTransport, type RequestListener } from './inProcessKoa';

/** The bucket of the local server: its links are `<API URL>/exports/<key>`, path-style, on the API's own port. */
export const LOCAL_EXPORT_BUCKET = 'exports';

/** The paths of the local server that are export links, not API routes. */
export const LOCAL_EXPORT_PATH = `/${LOCAL_EXPORT_BUCKET}/`;

export interface LinkRequest {
  method: string;
  /** The raw path and query, as on the request line. */
  path: string;
  query: string;
  /** The Host the link was asked on: the signature covers it. */
  host: string | undefined;
}

export interface LinkAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export interface EmbeddedS3 {
  /** The exports' store, through the same adapter as on AWS. */
  store: S3BlobStore;
  /** Answers GET <API URL>/exports/<key>?<signature>: what S3 checks, then the object from s3rver. */
  serveLink(request: LinkRequest): Promise<LinkAnswer>;
  /** Removes the exports written more than EXPORT_RETENTION_DAYS ago; runs every `pruneEveryMs` too. Gives how many files or objects went. */
  pruneExpired(): number;
  close(): Promise<void>;
}

export interface EmbeddedS3Options {
  /** Where the objects live (the data directory's `exports/`); omitted: in memory. */
  directory?: string;
  /** The origin of the links. */
  publicUrl: () => string;
  /**
   * The origin was set by ARBITER_PUBLIC_URL (a proxy may stand in front): a link is checked
   * against it, whatever Host the proxy passes on. Otherwise against the Host it was asked on.
   */
  fixedPublicUrl?: boolean;
  /** Milliseconds since the epoch; tests move it. */
  now?: () => number;
  /** How often expired exports are removed while the server runs. */
  pruneEveryMs?: number;
}

/** How often the running local server removes expired exports, as the bucket's lifecycle rule does on AWS. */
export const EXPORT_PRUNE_INTERVAL_MS = 60 * 60 * 1000;

interface S3rverApp {
  store: unknown;
  context: { store: unknown };
  logger?: { close(): void };
  configureBuckets(): Promise<unknown>;
  callback(): RequestListener;
}

/**
 * s3rver, the local S3, inside this process, as dynalite is (embeddedDynamo.ts): the export
 * store's requests are function calls to its request handler, it listens on no port, and its
 * objects live under `directory` (the data directory's `exports/`, for this user only) or in
 * memory. Its links are served through the API's port (`serveLink`), signed and checked as S3
 * signs and checks them (s3rver itself does not check Signature Version 4), so `npm start`
 * takes the path that AWS takes. s3rver itself starts with the first request that needs it.
 */
export async function startEmbeddedS3(options: EmbeddedS3Options): Promise<EmbeddedS3> {
  const now = options.now ?? Date.now;
  const directory = options.directory;
  let memoryStore: MemoryS3Store | undefined;
  const pruneExpired = () => {
    const before = now() - EXPORT_RETENTION_DAYS * 86_400_000;
    if (directory) return pruneExports(join(directory, LOCAL_EXPORT_BUCKET), before);
    return memoryStore?.removeWrittenBefore(before) ?? 0;
  };
  if (directory) {
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    sealDataDir(directory);
    pruneExpired();
  }
  const pruning = setInterval(() => {
    try {
      pruneExpired();
    } catch {
      // A folder that cannot be read now is tried again at the next round.
    }
  }, options.pruneEveryMs ?? EXPORT_PRUNE_INTERVAL_MS);
  pruning.unref();
  // s3rver (Koa, winston, …) is loaded when the first large export needs it, not at every start.
  let booted: Promise<{ app: S3rverApp; listener: RequestListener }> | undefined;
  const boot = () =>
    (booted ??= (async () => {
      const S3rver = createRequire(import.meta.url)('s3rver') as new (options: unknown) => S3rverApp;
      const app = new S3rver({
        silent: true,
        // Paths name the bucket: a Host such as [::1] is never taken for one.
        vhostBuckets: false,
        directory: options.directory ?? '/nonexistent',
        configureBuckets: [{ name: LOCAL_EXPORT_BUCKET, configs: [] }],
      });
      app.store = app.context.store = directory ? durableFilesystemStore(directory) : (memoryStore = new MemoryS3Store(now));
      await app.configureBuckets();
      return { app, listener: app.callback() };
    })().catch((error: unknown) => {
      booted = undefined;
      throw error;
    }));
  const transport: S3Transport = async (request) => inProcessTransport((await boot()).listener)(request);
  // s3rver knows only its own access key id; the secret is this process's, so a link dies with it.
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: randomBytes(32).toString('hex') };
  const store = new S3BlobStore({ endpoint: options.publicUrl, bucket: LOCAL_EXPORT_BUCKET, region: 'local', credentials, transport });
  let closed = false;
  return {
    store,
    serveLink: async (request) => {
      if (closed) return refusal(503, 'unavailable', 'The server is stopping.');
      const key = request.path.startsWith(LOCAL_EXPORT_PATH) ? request.path.slice(LOCAL_EXPORT_PATH.length) : '';
      // Only the keys the service writes: no dot segment, no encoded character, nothing outside the bucket.
      if (!isBlobKey(key)) return refusal(404, 'not_found', 'No such export.');
      if (request.method !== 'GET') return { ...refusal(405, 'method_not_allowed', 'An export link is read with GET.'), headers: { ...JSON_HEADERS, allow: 'GET' } };
      let url: URL;
      try {
        const origin = options.fixedPublicUrl ? options.publicUrl() : `http://${request.host ?? ''}`;
        url = new URL(`${origin}${request.path}${request.query ? `?${request.query}` : ''}`);
      } catch {
        return refusal(403, 'forbidden', 'This export link is not valid: ask for the export again.');
      }
      if (url.pathname !== request.path) return refusal(404, 'not_found', 'No such export.');
      const problem = await store.linkProblem(url);
      if (problem) return refusal(403, 'forbidden', `This export link cannot be used (${problem}): ask for the export again.`);
      // Checked: s3rver is asked as S3 would be after its own checks, with nothing of the client's.
      const answer = await call((await boot()).listener, { method: 'GET', url: `${LOCAL_EXPORT_PATH}${key}`, headers: { host: 'embedded.invalid' } });
      if (answer.status === 404) return refusal(404, 'not_found', 'No such export: it may have been removed; ask for the export again.');
      if (answer.status !== 200) return refusal(502, 'internal_error', 'The export store could not answer.');
      return {
        status: 200,
        headers: {
          'content-length': String(answer.body.length),
          'content-type': answer.headers['content-type'] ?? 'application/octet-stream',
          'cache-control': answer.headers['cache-control'] ?? 'private, max-age=300',
          'x-content-type-options': 'nosniff',
        },
        body: Buffer.from(answer.body),
      };
    },
    pruneExpired,
    close: async () => {
      closed = true;
      clearInterval(pruning);
      const running = await booted?.catch(() => undefined);
      running?.app.logger?.close();
    },
  };
}

/** The most entries one prune walks: an export folder holds three files per export. */
const MAX_PRUNED_ENTRIES = 100_000;

/**
 * The bucket's lifecycle rule, on the local server's start: s3rver's files (`<key>._S3rver_object`,
 * its metadata and md5) older than `before` are removed, as S3 expires them on AWS; an export
 * asked for again is written again. Returns how many files it removed.
 */
export function pruneExports(bucketFolder: string, before: number): number {
  const folders = [bucketFolder];
  let seen = 0;
  let removed = 0;
  while (folders.length > 0 && seen < MAX_PRUNED_ENTRIES) {
    const folder = folders.pop()!;
    let entries;
    try {
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (++seen > MAX_PRUNED_ENTRIES) break;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) folders.push(path);
      else if (entry.isFile() && entry.name.includes('._S3rver_') && statSync(path).mtimeMs < before) {
        rmSync(path, { force: true });
        removed += 1;
      }
    }
  }
  return removed;
}

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

function refusal(status: number, code: string, message: string): LinkAnswer {
  return { status, headers: { ...JSON_HEADERS }, body: Buffer.from(JSON.stringify({ error: { code, message } })) };
}

/**
 * s3rver's file store, except that a PUT is answered once the object is whole on disk: s3rver's
 * own answers when the bytes are handed to the file stream, so a GET right after it (the client
 * following its link) could read half a file. S3 reads what it acknowledged; so does this: the
 * metadata first, then the object written aside and renamed into place, all awaited.
 */
function durableFilesystemStore(directory: string): unknown {
  const FilesystemStore = createRequire(import.meta.url)('s3rver/lib/stores/filesystem') as new (directory: string) => {
    getResourcePath(bucket: string, key: string | undefined, resource: string): string;
    putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
  };
  class DurableStore extends FilesystemStore {
    async putObject(object: { bucket: string; key: string; content: Buffer | NodeJS.ReadableStream; metadata: Record<string, string> }) {
      const content = Buffer.isBuffer(object.content) ? object.content : await collect(object.content);
      const md5 = createHash('md5').update(content).digest('hex');
      const path = this.getResourcePath(object.bucket, object.key, 'object');
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      await this.putMetadata(object.bucket, object.key, object.metadata, md5);
      const aside = `${path}.${randomBytes(6).toString('hex')}.partial`;
      await writeFile(aside, content, { mode: 0o600 });
      await rename(aside, path);
      return { size: content.length, md5 };
    }

    // A part of a multipart upload, answered once it is whole on disk (s3rver's own answers before the file is flushed).
    async putPart(bucket: string, uploadId: string, partNumber: number, content: NodeJS.ReadableStream) {
      const bytes = await collect(content);
      const path = join(this.getResourcePath(bucket, undefined, 'uploads'), uploadId, String(partNumber));
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const md5 = createHash('md5').update(bytes).digest('hex');
      await writeFile(path, bytes, { mode: 0o600 });
      await writeFile(`${path}.md5`, md5, { mode: 0o600 });
      return { size: bytes.length, md5 };
    }
  }
  return new DurableStore(directory);
}

interface StoredObject {
  content: Buffer;
  metadata: Record<string, string>;
  md5: string;
  modified: Date;
}

/**
 * s3rver's store, in memory, for a local server without a data directory: the buckets and
 * objects of the calls s3rver makes for PUT, HEAD and GET of an object (anything else throws).
 */
class MemoryS3Store {
  private readonly models = createRequire(import.meta.url);
  private readonly S3Bucket = this.models('s3rver/lib/models/bucket') as new (name: string, created: Date) => unknown;
  private readonly S3Object = this.models('s3rver/lib/models/object') as new (bucket: string, key: string, content: unknown, metadata: Record<string, unknown>) => {
    metadata: Record<string, string>;
    content: Buffer | NodeJS.ReadableStream;
    range?: { start: number; end: number };
  };
  private readonly ALLOWED: string[] = (this.models('s3rver/lib/models/object') as { ALLOWED_METADATA: string[] }).ALLOWED_METADATA;
  private readonly buckets = new Map<string, { created: Date; objects: Map<string, StoredObject> }>();

  constructor(private readonly now: () => number) {}

  /** The lifecycle rule: objects written before `before` (ms) are removed. */
  removeWrittenBefore(before: number): number {
    let removed = 0;
    for (const bucket of this.buckets.values()) {
      for (const [key, object] of bucket.objects) {
        if (object.modified.getTime() < before) {
          bucket.objects.delete(key);
          removed += 1;
        }
      }
    }
    return removed;
  }

  async listBuckets() {
    return [...this.buckets].map(([name, b]) => new this.S3Bucket(name, b.created));
  }

  async getBucket(name: string) {
    const bucket = this.buckets.get(name);
    return bucket ? new this.S3Bucket(name, bucket.created) : null;
  }

  async putBucket(name: string) {
    if (!this.buckets.has(name)) this.buckets.set(name, { created: new Date(this.now()), objects: new Map() });
    return this.getBucket(name);
  }

  async getSubresource() {
    return null;
  }

  async existsObject(bucket: string, key: string) {
    return this.buckets.get(bucket)?.objects.has(key) ?? false;
  }

  async getObject(bucket: string, key: string, options?: { start?: number; end?: number }) {
    const stored = this.buckets.get(bucket)?.objects.get(key);
    if (!stored) return null;
    const metadata = { ...stored.metadata, etag: JSON.stringify(stored.md5), 'last-modified': stored.modified.toUTCString(), 'content-length': String(stored.content.length) };
    const last = Math.max(0, stored.content.length - 1);
    const ranged = options !== undefined && (options.start !== undefined || options.end !== undefined);
    const range = { start: options?.start ?? 0, end: Math.min(options?.end ?? Infinity, last) };
    const satisfiable = range.start >= 0 && range.end >= range.start;
    const object = new this.S3Object(bucket, key, satisfiable ? Readable.from([stored.content.subarray(range.start, range.end + 1)]) : null, metadata);
    if (ranged) object.range = range;
    return object;
  }

  async putObject(object: { bucket: string; key: string; content: Buffer | NodeJS.ReadableStream; metadata: Record<string, string> }) {
    const bucket = this.buckets.get(object.bucket);
    if (!bucket) throw new Error(`no bucket ${object.bucket}`);
    const content = Buffer.isBuffer(object.content) ? object.content : await collect(object.content);
    const md5 = createHash('md5').update(content).digest('hex');
    const metadata: Record<string, string> = {};
    for (const [name, value] of Object.entries(object.metadata)) {
      if (this.ALLOWED.includes(name) || name.startsWith('x-amz-meta-')) metadata[name] = value;
    }
    bucket.objects.set(object.key, { content, metadata, md5, modified: new Date(this.now()) });
    return { size: content.length, md5 };
  }

  async deleteObject(bucket: string, key: string) {
    this.buckets.get(bucket)?.objects.delete(key);
  }

  private readonly uploads = new Map<string, { bucket: string; key: string; metadata: Record<string, string>; parts: Map<number, Buffer> }>();

  async initiateUpload(bucket: string, key: string, uploadId: string, metadata: Record<string, string>) {
    this.uploads.set(uploadId, { bucket, key, metadata, parts: new Map() });
  }

  async putPart(bucket: string, uploadId: string, partNumber: number, content: NodeJS.ReadableStream) {
    const upload = this.uploads.get(uploadId);
    if (!upload || upload.bucket !== bucket) throw new Error(`no upload ${uploadId}`);
    const bytes = await collect(content);
    upload.parts.set(Number(partNumber), bytes);
    return { size: bytes.length, md5: createHash('md5').update(bytes).digest('hex') };
  }

  async putObjectMultipart(bucket: string, uploadId: string, parts: { number: number; etag: string }[]) {
    const upload = this.uploads.get(uploadId);
    if (!upload || upload.bucket !== bucket) throw new Error(`no upload ${uploadId}`);
    this.uploads.delete(uploadId);
    const content = Buffer.concat([...parts].sort((a, b) => a.number - b.number).map((part) => upload.parts.get(part.number) ?? Buffer.alloc(0)));
    return this.putObject({ bucket, key: upload.key, content, metadata: upload.metadata });
  }

  reset() {
    this.buckets.clear();
  }
}

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}
