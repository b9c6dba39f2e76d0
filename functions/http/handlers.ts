import type { GameService } from '../application/gameService';
import { catalogueHandlers } from './catalogueHandlers';
import { gameHandlers } from './gameHandlers';
import { consoleObserver, type Observer } from './observe';

export type HandlerName = keyof ReturnType<typeof createHandlers>;

/** The handlers of every route, as the local server serves them. */
export function createHandlers(service: GameService | (() => Promise<GameService>), observer: Observer = consoleObserver) {
  return { ...catalogueHandlers(observer), ...gameHandlers(service, observer) };
}
