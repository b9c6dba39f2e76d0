import { createHash } from 'node:crypto';
import { canonicalJson } from '../../domain/canonicalJson';
import type { BlobStore } from '../store/blobStore';
import { StoreUnavailable } from '../ports/eventStore';
import type { GameService } from './gameService';
import type { ExportJobStarter } from '../ports/exportJobs';

/** How long a link to a stored export works (docs/exports.md): long enough to start the download, short enough not to be shared. */
export const EXPORT_LINK_SECONDS = 300;

/**
 * An export answered inline at most this large, counted as Lambda carries it (the body
 * JSON-escaped inside the function's response, which grows it by up to 2×); anything larger
 * is written to the export store and answered with a link. Lambda refuses responses over
 * 6 MB: 5 MiB leaves room for the headers and the envelope.
 */
export const INLINE_EXPORT_MAX_BYTES = 5 * 1024 * 1024;

export interface ExportDelivery {
  store: BlobStore;
  /** Default EXPORT_LINK_SECONDS. */
  linkSeconds?: number;
  /** Default INLINE_EXPORT_MAX_BYTES; smaller in tests that want the link path with small games. */
  inlineMaxBytes?: number;
  now?: () => number;
  /** Starts tournament export jobs (tournamentExportJobs.ts): an asynchronous invocation on AWS; none: in this process. */
  jobs?: ExportJobStarter;
}

export type ExportAnswer =
  | { kind: 'inline'; body: string; contentType: string }
  | { kind: 'link'; url: string; expiresAt: string; bytes: number };

const JSON_TYPE = 'application/json; charset=utf-8';

/** The bytes a body takes inside a Lambda response: as a JSON string. */
export function carriedBytes(body: string): number {
  return Buffer.byteLength(JSON.stringify(body), 'utf8');
}

/**
 * GET /games/{id}/export. A game at a version never changes (commits are only appended, and
 * a sealed game takes none), so its export is stored once under a key naming the game, the
 * version and the keys it carries, and every later request for that version is answered
 * with a new link to the same object, without reading the game's commits again.
 */
export async function gameExport(service: GameService, delivery: ExportDelivery | undefined, gameId: string, token: string | undefined): Promise<ExportAnswer> {
  if (!delivery) return inline(JSON.stringify(await service.exportBundle(gameId, token)), JSON_TYPE);
  // Refuses an unknown game (404) or a token not of it (401) before anything is looked up.
  const { version } = await service.view(gameId, token);
  const keys = keysDigest(service);
  const stored = await storedSize(delivery.store, gameKey(gameId, version, keys));
  if (stored !== undefined) return linked(delivery, gameKey(gameId, version, keys), stored);
  const bundle = await service.exportBundle(gameId, token);
  const body = JSON.stringify(bundle);
  if (carriedBytes(body) <= (delivery.inlineMaxBytes ?? INLINE_EXPORT_MAX_BYTES)) return inline(body, JSON_TYPE);
  // The version of what was read: a command may have been stored since the view.
  const key = gameKey(gameId, bundle.commits.at(-1)!.seq, keys);
  const bytes = Buffer.from(body, 'utf8');
  await delivery.store.put(key, bytes, JSON_TYPE);
  return linked(delivery, key, bytes.length);
}

/** `games/<gameId>/<version>-<keys>.json`: the keys part changes when a rotation changes the keys an export carries. */
export function gameKey(gameId: string, version: number, keys: string): string {
  return `games/${gameId}/${version}-${keys}.json`;
}

/**
 * The size of a stored export, or undefined. A store briefly unavailable counts as "not stored":
 * a small export is still answered inline, and a large one finds the store again when it is written.
 */
async function storedSize(store: BlobStore, key: string): Promise<number | undefined> {
  try {
    return await store.size(key);
  } catch (error) {
    if (error instanceof StoreUnavailable) return undefined;
    throw error;
  }
}

/** The digest of the keys an export carries: a rotation makes every stored export new. */
export function keysDigest(service: GameService): string {
  return createHash('sha256').update(canonicalJson(service.signer.keysDocument())).digest('hex').slice(0, 16);
}

function inline(body: string, contentType: string): ExportAnswer {
  return { kind: 'inline', body, contentType };
}

async function linked(delivery: ExportDelivery, key: string, bytes: number): Promise<ExportAnswer> {
  const seconds = delivery.linkSeconds ?? EXPORT_LINK_SECONDS;
  const now = delivery.now?.() ?? Date.now();
  return { kind: 'link', url: await delivery.store.link(key, seconds), expiresAt: new Date(now + seconds * 1000).toISOString(), bytes };
}
