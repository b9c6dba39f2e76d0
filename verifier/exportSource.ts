import { UsageError } from './parseArguments';
import { isUrl, UnusableInput } from './readSource';

/** Where an export is read from: a file, or a URL and the token that goes with it (in the Authorization header only). */
export type ExportSource = { kind: 'file'; path: string; shown: string } | { kind: 'url'; url: URL; token: string | undefined; shown: string };

const WEB_APP_ROUTE = /^\/(games|tournaments)\/([^?/]+)\/?(?:\?(.*))?$/;
const VERIFY_PAGE_ROUTE = /^\/verify(?:\?(.*))?$/;

/**
 * What a person gives `verify` or `export`: a file; an API URL of a game, a tournament or
 * an export; or a link of the web app as people are handed them, `https://host/#/games/{id}?token=…`
 * (a player's, the organizer's or a spectator's link, or a tournament's `#/tournaments/{id}?token=…`),
 * read as the web app reads it: GET {origin}/games/{id}/export with the token of its fragment.
 * The token leaves the URL: it is sent as `Authorization: Bearer`, never in a path or a query,
 * and `shown` (the name used in messages) never holds it.
 */
export function exportSource(source: string, token: string | undefined): ExportSource {
  if (!isUrl(source)) return { kind: 'file', path: source, shown: JSON.stringify(withoutTokens(source)) };
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw new UnusableInput(`${JSON.stringify(withoutTokens(source))} is not a URL`);
  }
  const link = webAppLink(url);
  if (link) {
    const exportUrl = new URL(`/${link.kind}/${link.id}/export`, url.origin);
    return { kind: 'url', url: exportUrl, token: link.token || token, shown: `${url.origin}/#/${link.kind}/${link.id}` };
  }
  const queryToken = url.searchParams.get('token');
  url.searchParams.delete('token');
  url.hash = '';
  if (/\/(games|tournaments)\/[^/]+\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/$/, '')}/export`;
  return { kind: 'url', url, token: queryToken || token, shown: url.href };
}

/** The game or tournament a web app link opens, and its token; undefined for a URL without a fragment route. */
function webAppLink(url: URL): { kind: string; id: string; token: string } | undefined {
  const route = url.hash.replace(/^#/, '');
  if (!route.startsWith('/')) return undefined;
  const page = WEB_APP_ROUTE.exec(route);
  if (page) return { kind: page[1], id: checkedId(url, page[1], page[2]), token: new URLSearchParams(page[3] ?? '').get('token') ?? '' };
  const verify = VERIFY_PAGE_ROUTE.exec(route);
  const params = new URLSearchParams(verify?.[1] ?? '');
  const game = params.get('game');
  const tournament = params.get('tournament');
  if (verify && game) return { kind: 'games', id: checkedId(url, 'games', encodeURIComponent(game)), token: params.get('token') ?? '' };
  if (verify && tournament) return { kind: 'tournaments', id: checkedId(url, 'tournaments', encodeURIComponent(tournament)), token: params.get('token') ?? '' };
  throw new UsageError(`${url.origin}/#${withoutTokens(route.split('?')[0])} is a page of the web app, not a game: give a game's link (…/#/games/{id}?token=…), its export file, or the API's URL of the game`);
}

/**
 * A game's or tournament's id as a link names it, percent-encoded: only the characters of the
 * ids the server makes, so that a link can never point the token at another path (`..`,
 * `%2e%2e`, a slash).
 */
function checkedId(url: URL, kind: string, id: string): string {
  if (/^[A-Za-z0-9_-]{1,80}$/.test(id)) return id;
  throw new UsageError(`${url.origin}/#/${kind}/${withoutTokens(id)} names no ${kind === 'games' ? 'game' : 'tournament'}: an id is letters, digits, - and _`);
}

/** Text to show, with the value of anything named token (`token=…`) left out. */
export function withoutTokens(text: string): string {
  return text.replace(/(token=)[^&#\s]*/gi, '$1…');
}
