export type { BlobStore, BlobUpload, JobBlobStore } from '../ports/blobStore';

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
