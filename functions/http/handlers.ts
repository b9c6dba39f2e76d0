import type { GameService } from '../application/gameService';
import { apiDocsHandlers } from './apiDocsHandlers';
import { catalogueHandlers } from './catalogueHandlers';
import { gameHandlers } from './gameHandlers';
import { consoleObserver, type Observer } from './observe';
import { verifierHandlers } from './verifierHandlers';
import { webHandlers, type WebAssets } from './webHandlers';

const noWebApp = async (): Promise<WebAssets> => new Map();

export type HandlerName = keyof ReturnType<typeof createHandlers>;

/** The handlers of every route, as the local server serves them. */
export function createHandlers(
  service: GameService | (() => Promise<GameService>),
  verifierSource: () => Promise<string>,
  observer: Observer = consoleObserver,
  webAssets: () => Promise<WebAssets> = noWebApp,
) {
  return { ...catalogueHandlers(observer), ...gameHandlers(service, observer), ...verifierHandlers(verifierSource, observer), ...webHandlers(webAssets, observer), ...apiDocsHandlers(observer) };
}
