import type { GameService } from '../application/gameService';
import { consoleObserver, type Observer } from './observe';
import { bearerToken, json, type HttpResult } from './respond';
import { route } from './route';

const BASE_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' };

/** Tournaments, and the token routes of a game that a tournament's organizer (or the game's) uses. */
export function tournamentHandlers(service: () => Promise<GameService>, observer: Observer = consoleObserver) {
  const idOf = (event: { pathParameters?: Record<string, string | undefined> }) => event.pathParameters?.id ?? '';
  const roleOf = (event: { pathParameters?: Record<string, string | undefined> }) => event.pathParameters?.role ?? '';
  return {
    createTournament: route(async (event) => json(201, await (await service()).tournaments.create(event.parsedBody)), observer),

    getTournament: route(async (event) => json(200, await (await service()).tournaments.listing(idOf(event), bearerToken(event))), observer),

    exportTournament: route(async (event): Promise<HttpResult> => {
      let body = '';
      for await (const line of (await service()).tournaments.exportLines(idOf(event), bearerToken(event))) body += line;
      return { statusCode: 200, headers: { ...BASE_HEADERS, 'content-type': 'application/x-ndjson; charset=utf-8' }, body };
    }, observer),

    reissueToken: route(async (event) => json(201, await (await service()).reissueToken(idOf(event), bearerToken(event), roleOf(event))), observer),

    revokeToken: route(async (event) => json(200, await (await service()).revokeToken(idOf(event), bearerToken(event), roleOf(event))), observer),
  };
}
