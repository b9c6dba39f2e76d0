/**
 * Where exports too large for one response are kept, and handed out by link: an S3 bucket
 * on AWS, the in-process s3rver of `npm start` (both through s3BlobStore.ts). Every key
 * names content that never changes (a game at a version, a tournament file by its hash),
 * so an object is written once and read many times.
 */
export interface BlobStore {
  /** The size in bytes of the object at `key`, or undefined when there is none. */
  size(key: string): Promise<number | undefined>;
  /** Stores the bytes under `key`; storing the same key again stores the same bytes. */
  put(key: string, body: Uint8Array, contentType: string): Promise<void>;
  /** A link that GETs the object with no other credential, valid for `expiresInSeconds`. */
  link(key: string, expiresInSeconds: number): Promise<string>;
}

/**
 * The only keys the service writes or links: `<kind>/<id>/<name>.json|ndjson`, each part of
 * letters, digits, `_` and `-`. No dot segment, no encoded character, no second slash:
 * nothing a path could climb out of the bucket with.
 */
const BLOB_KEY = /^(games|tournaments)\/[A-Za-z0-9_-]{1,64}\/[A-Za-z0-9_-]{1,80}\.(json|ndjson)$/;

export function isBlobKey(key: string): boolean {
  return BLOB_KEY.test(key);
}

export function checkedBlobKey(key: string): string {
  if (!isBlobKey(key)) throw new Error(`not an export key: ${JSON.stringify(key.slice(0, 200))}`);
  return key;
}

/**
 * The environment of a function that writes or links exports (infra/exportStorage.ts sets
 * it; s3BlobStore.ts reads it): the bucket's own endpoint, its region, and the key prefix
 * the function's role is limited to.
 */
export const EXPORT_ENVIRONMENT = {
  endpoint: 'ARBITER_EXPORT_ENDPOINT',
  region: 'ARBITER_EXPORT_REGION',
  prefix: 'ARBITER_EXPORT_PREFIX',
} as const;

/** The prefix of every export object in the bucket; the roles are granted this prefix only. */
export const EXPORT_PREFIX = 'exports/';

/** Export objects are removed this many days after they are written (the bucket's lifecycle; the local server's start). */
export const EXPORT_RETENTION_DAYS = 7;
