import type { GameService } from '../application/gameService';
import { tournamentExport, type ExportDelivery } from '../application/exports';
import { exportResult } from './exportAnswer';
import { TOURNAMENT_PAGE_DEFAULT, type GamePage } from '../application/tournamentPages';
import type { ParsedEvent } from './middleware';
import { consoleObserver, type Observer } from './observe';
import { bearerToken, clientAddress, json } from './respond';
import { TOURNAMENT_PAGE } from './operations';
import { pathOf, queryOf } from './parameters';
import { route } from './route';

/** The page a request asks for (its query checked against TOURNAMENT_PAGE), or undefined when it asks for none. */
function gamePageOf(event: ParsedEvent): GamePage | undefined {
  const { after, limit } = queryOf(event, TOURNAMENT_PAGE);
  if (after === undefined && limit === undefined) return undefined;
  return { ...(after !== undefined ? { after } : {}), limit: limit ?? TOURNAMENT_PAGE_DEFAULT };
}

/** Tournaments, and the token routes of a game that a tournament's organizer (or the game's) uses. */
export function tournamentHandlers(service: () => Promise<GameService>, observer: Observer = consoleObserver, exports?: ExportDelivery) {
  const idOf = (event: ParsedEvent) => pathOf(event, 'id');
  const roleOf = (event: ParsedEvent) => pathOf(event, 'role');
  return {
    createTournament: route(async (event) => json(201, await (await service()).tournaments.create(event.parsedBody, clientAddress(event))), observer),

    // A page of its games (?after=<gameId>&limit=), the first without a query.
    getTournament: route(async (event) => json(200, await (await service()).tournaments.listing(idOf(event), bearerToken(event), gamePageOf(event))), observer),

    // NDJSON inline when it fits one response; otherwise stored and answered with a link (exports.ts). The whole tournament, or a page of it.
    exportTournament: route(async (event) => exportResult(await tournamentExport(await service(), exports, idOf(event), bearerToken(event), gamePageOf(event))), observer),

    reissueToken: route(async (event) => json(201, await (await service()).reissueToken(idOf(event), bearerToken(event), roleOf(event))), observer),

    revokeToken: route(async (event) => json(200, await (await service()).revokeToken(idOf(event), bearerToken(event), roleOf(event))), observer),
  };
}
