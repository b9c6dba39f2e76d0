/**
 * The name of each handler (handlers.ts), as the operations table (operations.ts) names the
 * one that answers an operation; a list of its own so that the table, the router and the
 * Lambda groups know the names without importing the handlers. handlers.ts checks at compile
 * time that it answers exactly these.
 */
export const HANDLER_NAMES = [
  'health',
  'listRulesets',
  'evaluate',
  'tableSchema',
  'validateTable',
  'createGame',
  'getGame',
  'postCommand',
  'listEvents',
  'exportGame',
  'verifyGame',
  'head',
  'gameClock',
  'gameStats',
  'publicStats',
  'addViewer',
  'listViewers',
  'revokeViewer',
  'subscribe',
  'listSubscriptions',
  'unsubscribe',
  'subscribeTournament',
  'listTournamentSubscriptions',
  'unsubscribeTournament',
  'confirmPage',
  'confirmSubscription',
  'unsubscribePage',
  'unsubscribeByLink',
  'reissueToken',
  'revokeToken',
  'createTournament',
  'getTournament',
  'exportTournament',
  'tournamentExportStatus',
  'keys',
  'verifierScript',
  'openapi',
  'apiDocsPage',
  'apiDocsAsset',
  'webPage',
  'webAsset',
] as const;

export type HandlerName = (typeof HANDLER_NAMES)[number];
