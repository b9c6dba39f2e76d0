import type { ExportDelivery } from '../application/exports';
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
  /** Where exports too large for one response go (exports.ts); none: always inline. */
  exports?: ExportDelivery,
) {
  return { ...catalogueHandlers(observer), ...gameHandlers(service, observer, exports), ...verifierHandlers(verifierSource, observer), ...webHandlers(webAssets, observer), ...apiDocsHandlers(observer) };
}
