import type { GameService } from '../application/gameService';
import type { ExportDelivery } from '../application/exports';
import { startTournamentExport, tournamentExportStatus } from '../application/tournamentExportJobs';
import { tournamentExportResult } from './exportAnswer';
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

    // Made by a job and stored (tournamentExportJobs.ts): 202 while it runs, 303 to its link once made. The whole tournament, or a page of it.
    exportTournament: route(async (event) => tournamentExportResult(idOf(event), await startTournamentExport(await service(), exports, idOf(event), bearerToken(event), gamePageOf(event))), observer),

    tournamentExportStatus: route(async (event) => tournamentExportResult(idOf(event), await tournamentExportStatus(await service(), exports, idOf(event), pathOf(event, 'exportId'), bearerToken(event))), observer),

    reissueToken: route(async (event) => json(201, await (await service()).reissueToken(idOf(event), bearerToken(event), roleOf(event))), observer),

    revokeToken: route(async (event) => json(200, await (await service()).revokeToken(idOf(event), bearerToken(event), roleOf(event))), observer),
  };
}
