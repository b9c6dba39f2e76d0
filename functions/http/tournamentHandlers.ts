import type { GameService } from '../application/gameService';
import { tournamentExport, type ExportDelivery } from '../application/exports';
import { exportResult } from './exportAnswer';
import { gamePageOf } from '../application/tournamentPages';
import { consoleObserver, type Observer } from './observe';
import { bearerToken, clientAddress, json } from './respond';
import { route } from './route';

/** Tournaments, and the token routes of a game that a tournament's organizer (or the game's) uses. */
export function tournamentHandlers(service: () => Promise<GameService>, observer: Observer = consoleObserver, exports?: ExportDelivery) {
  const idOf = (event: { pathParameters?: Record<string, string | undefined> }) => event.pathParameters?.id ?? '';
  const roleOf = (event: { pathParameters?: Record<string, string | undefined> }) => event.pathParameters?.role ?? '';
  return {
    createTournament: route(async (event) => json(201, await (await service()).tournaments.create(event.parsedBody, clientAddress(event))), observer),

    // A page of its games (?after=<gameId>&limit=), the first without a query.
    getTournament: route(async (event) => json(200, await (await service()).tournaments.listing(idOf(event), bearerToken(event), gamePageOf(event.queryStringParameters))), observer),

    // NDJSON inline when it fits one response; otherwise stored and answered with a link (exports.ts). The whole tournament, or a page of it.
    exportTournament: route(async (event) => exportResult(await tournamentExport(await service(), exports, idOf(event), bearerToken(event), gamePageOf(event.queryStringParameters))), observer),

    reissueToken: route(async (event) => json(201, await (await service()).reissueToken(idOf(event), bearerToken(event), roleOf(event))), observer),

    revokeToken: route(async (event) => json(200, await (await service()).revokeToken(idOf(event), bearerToken(event), roleOf(event))), observer),
  };
}
