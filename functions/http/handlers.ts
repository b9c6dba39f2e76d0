import type { ExportDelivery } from '../application/exports';
import type { GameService } from '../application/gameService';
import { apiDocsHandlers } from './apiDocsHandlers';
import { catalogueHandlers } from './catalogueHandlers';
import { gameHandlers } from './gameHandlers';
import { consoleObserver, type Observer } from './observe';
import { verifierHandlers } from './verifierHandlers';
import { webHandlers, type WebAssets } from './webHandlers';
import type { HandlerName } from './handlerNames';

const noWebApp = async (): Promise<WebAssets> => new Map();

export type { HandlerName } from './handlerNames';

/** Compiles only when the handlers answer exactly the names the operations table uses. */
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const answersEveryName: Exactly<keyof ReturnType<typeof createHandlers>, HandlerName> = true;
void answersEveryName;

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
