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
