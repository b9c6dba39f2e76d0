import { textLines } from '../../domain/game/textLine';
import { voidedList } from '../application/gameReads';
import type { GameService } from '../application/gameService';
import { cappedEvents } from '../application/eventPages';
import { gameExport, type ExportDelivery } from '../application/exports';
import { exportResult } from './exportAnswer';
import { consoleObserver, observe, type Observer } from './observe';
import { EVENTS_PAGE, LONG_POLL_MAX_SECONDS } from './operations';
import { pathOf, queryOf } from './parameters';
import { bearerToken, clientAddress, header, json, noContent, notModified, text, wantsText, type HttpEvent } from './respond';
import type { ParsedEvent } from './middleware';
import { route } from './route';
import { subscriptionHandlers } from './subscriptionHandlers';
import { tournamentHandlers } from './tournamentHandlers';

/** `If-None-Match: "7"` (or W/"7", or 7) against the version. */
function matchesVersion(event: HttpEvent, version: number): boolean {
  const value = header(event, 'if-none-match');
  if (!value) return false;
  return value.split(',').some((tag) => tag.trim().replace(/^W\//, '').replace(/"/g, '') === String(version));
}

const etagOf = (version: number) => `"${version}"`;

export { LONG_POLL_MAX_SECONDS };

/** The routes of games: create, command, read, export, verify, the signed head, and the keys that sign them. */
export function gameHandlers(getService: GameService | (() => Promise<GameService>), observer: Observer = consoleObserver, exports?: ExportDelivery, longPollMaxSeconds = LONG_POLL_MAX_SECONDS) {
  const service = typeof getService === 'function' ? getService : async () => getService;
  const gameIdOf = (event: ParsedEvent) => pathOf(event, 'id');
  return {
    // Any Authorization header must be a tournament's bearer token: a mistyped one is refused, not ignored.
    createGame: route(async (event) => {
      const token = header(event, 'authorization') === undefined ? undefined : (bearerToken(event) ?? '');
      // Its form (an unguessable value) is the service's rule: idempotencyKey.ts.
      const idempotencyKey = header(event, 'idempotency-key');
      return json(201, await (await service()).tournaments.createGame(event.parsedBody, token, idempotencyKey, clientAddress(event)));
    }, observer),

    getGame: route(async (event) => json(200, await (await service()).view(gameIdOf(event), bearerToken(event))), observer),

    postCommand: route(async (event) => {
      const outcome = await (await service()).submit(gameIdOf(event), bearerToken(event), event.parsedBody);
      observe(event, { seq: outcome.commit.seq, commandType: outcome.commit.command.type });
      const { commit, reveal, beacon } = outcome;
      // beacon.md §2: a pending commit is 202 until its reveal is stored; a retry after it answers the pair.
      const status = beacon && !reveal ? 202 : outcome.created ? 201 : 200;
      if (wantsText(event)) return text(status, [commit, ...(reveal ? [reveal] : [])].flatMap((c) => textLines(outcome.state, c, commit)).map((line) => `${line}\n`).join(''));
      if (reveal) return json(status, { version: outcome.version, commit, reveal });
      if (beacon) return json(status, { version: outcome.version, commit, beacon });
      return json(status, { version: outcome.version, commit });
    }, observer),

    listEvents: route(async (event) => {
      const { after, limit, wait: asked } = queryOf(event, EVENTS_PAGE);
      // A shorter hold than asked is still a long poll: the client asks again, as after any empty page.
      const wait = Math.min(asked, longPollMaxSeconds);
      // At most `limit` commits and at most MAX_PAGE_BYTES of them (eventPages.ts).
      const page = await cappedEvents(await service(), gameIdOf(event), bearerToken(event), after, limit, wait);
      const etag = etagOf(page.version);
      // http-api.md: If-None-Match with the current version is a 304, whatever the page (the same URL at the same version is the same answer).
      if (matchesVersion(event, page.version)) return notModified(etag);
      if (wantsText(event)) {
        return text(200, page.commits.flatMap((c, i) => textLines(page.state, c, page.commits[i - 1])).map((line) => `${line}\n`).join(''), { etag });
      }
      const onPage = new Set(page.commits.map((c) => c.seq));
      const voided = voidedList(page.state, (seq) => onPage.has(seq));
      return json(200, { gameId: page.gameId, version: page.version, commits: page.commits, ...(voided.length ? { voided } : {}) }, { etag });
    }, observer),

    // Inline when it fits one response; otherwise stored once per version and answered with a link (exports.ts).
    exportGame: route(async (event) => exportResult(await gameExport(await service(), exports, gameIdOf(event), bearerToken(event))), observer),

    verifyGame: route(async (event) => json(200, await (await service()).verify(gameIdOf(event), bearerToken(event))), observer),

    addViewer: route(async (event) => json(201, await (await service()).addViewer(gameIdOf(event), bearerToken(event), event.parsedBody)), observer),

    listViewers: route(async (event) => json(200, await (await service()).listViewers(gameIdOf(event), bearerToken(event))), observer),

    revokeViewer: route(async (event) => {
      await (await service()).revokeViewer(gameIdOf(event), bearerToken(event), pathOf(event, 'viewerId'));
      return noContent();
    }, observer),

    gameStats: route(async (event) => json(200, await (await service()).stats.ofGame(gameIdOf(event), bearerToken(event))), observer),
    publicStats: route(async () => json(200, await (await service()).stats.publicFigures()), observer),
    head: route(async (event) => json(200, await (await service()).head(gameIdOf(event), bearerToken(event))), observer),
    gameClock: route(async (event) => json(200, await (await service()).clock(gameIdOf(event), bearerToken(event))), observer),

    keys: route(async () => json(200, (await service()).signer.keysDocument()), observer),

    ...subscriptionHandlers(service, observer),
    ...tournamentHandlers(service, observer, exports),
  };
}
