import { invalidRequest } from './errors';

/** Games on a page of a tournament's listing or export when `limit` is not given, and at most. */
export const TOURNAMENT_PAGE_DEFAULT = 100;
export const TOURNAMENT_PAGE_MAX = 500;

/** `?after=<gameId>&limit=`: the games listed after `after` (from the first without it), at most `limit`. */
export interface GamePage {
  after?: string;
  limit: number;
}

/** A page of `items` (in creation order) and the cursor of the next: its last game, or null when it is the last page. */
export function pageOf<T>(items: readonly T[], idOf: (item: T) => string, page: GamePage): { items: T[]; next: string | null } {
  let start = 0;
  if (page.after !== undefined) {
    const after = page.after;
    const index = items.findIndex((item) => idOf(item) === after);
    if (index === -1) throw invalidRequest([{ field: 'after', message: 'is not a game of this tournament: use the `next` of the page before' }]);
    start = index + 1;
  }
  const taken = items.slice(start, start + page.limit);
  return { items: taken, next: start + page.limit < items.length ? idOf(taken.at(-1)!) : null };
}

/** The query of a paged request, or undefined when it asks for no page; a 400 naming the field for bad values. */
export function gamePageOf(query: Record<string, string | undefined> | null | undefined): GamePage | undefined {
  const after = query?.after;
  const limitText = query?.limit;
  if (after === undefined && limitText === undefined) return undefined;
  const issues = [];
  if (after !== undefined && !/^[\x21-\x7e]{1,128}$/.test(after)) issues.push({ field: 'after', message: 'is a game id: 1 to 128 printable characters' });
  const limit = limitText === undefined ? TOURNAMENT_PAGE_DEFAULT : Number(limitText);
  if (!/^\d{1,4}$/.test(limitText ?? '1') || !Number.isInteger(limit) || limit < 1 || limit > TOURNAMENT_PAGE_MAX) {
    issues.push({ field: 'limit', message: `must be an integer from 1 to ${TOURNAMENT_PAGE_MAX}` });
  }
  if (issues.length) throw invalidRequest(issues);
  return { ...(after !== undefined ? { after } : {}), limit };
}
