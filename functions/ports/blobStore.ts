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

/** An object written in parts as it is made (S3 multipart upload): only the part being filled is held. */
export interface BlobUpload {
  write(bytes: Uint8Array): Promise<void>;
  /** Stores what was written as one object; its size in bytes. */
  complete(): Promise<number>;
  /** Drops what was written; nothing is stored. */
  abort(): Promise<void>;
}

/** A store that also reads small objects back (a job's record) and takes large ones in parts (tournament exports). */
export interface JobBlobStore extends BlobStore {
  /** The object's bytes, or undefined when there is none. */
  read(key: string): Promise<Uint8Array | undefined>;
  upload(key: string, contentType: string): Promise<BlobUpload>;
}
