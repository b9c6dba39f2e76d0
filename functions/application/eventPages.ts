import type { Commit } from '../../domain/fairness/hashChain';
import type { GameService } from './gameService';

/**
 * A page of GET /games/{id}/events stops before its body would pass this many bytes (as
 * JSON, http-api.md; docs/exports.md), whatever `limit` allows: a commit may be 64 KB, and
 * 1,000 of them would not fit in one Lambda response. A page always holds at least one
 * commit when there is one after `after`, so a client always moves on.
 */
export const MAX_PAGE_BYTES = 1024 * 1024;

/** The first read of a page asks for at most this many commits; later reads are sized from what the first weighed. */
const FIRST_READ = 100;

/** Each read adds at least one commit or ends the page; this bounds the reads of a page all the same. */
const MAX_READS = 32;

export type EventPage = Awaited<ReturnType<GameService['events']>>;

/**
 * GameService.events, cut at MAX_PAGE_BYTES. The page keeps the version of its first read (its
 * ETag): commits stored during the later reads are left for the next page.
 */
export async function cappedEvents(
  service: GameService,
  gameId: string,
  token: string | undefined,
  after: number,
  limit: number,
  waitSeconds: number,
  maxBytes = MAX_PAGE_BYTES,
): Promise<EventPage> {
  const first = await service.events(gameId, token, after, Math.min(limit, FIRST_READ), waitSeconds);
  const commits: Commit[] = [];
  // `{"gameId":…,"version":…,"commits":[` and `]}`.
  let bytes = Buffer.byteLength(JSON.stringify({ gameId: first.gameId, version: first.version, commits: [] }));
  let read = first.commits;
  let asked = Math.min(limit, FIRST_READ);
  for (let reads = 1; reads <= MAX_READS; reads++) {
    for (const commit of read) {
      if (commit.seq > first.version) return { ...first, commits };
      const size = Buffer.byteLength(JSON.stringify(commit)) + (commits.length ? 1 : 0);
      if (commits.length > 0 && bytes + size > maxBytes) return { ...first, commits };
      commits.push(commit);
      bytes += size;
      if (commits.length >= limit) return { ...first, commits };
    }
    const last = commits.at(-1)?.seq ?? after;
    if (read.length < asked || last >= first.version || reads === MAX_READS) break;
    const average = Math.max(1, bytes / commits.length);
    asked = Math.max(1, Math.min(limit - commits.length, Math.floor((maxBytes - bytes) / average) + 1));
    read = (await service.events(gameId, token, last, asked, 0)).commits;
  }
  return { ...first, commits };
}
