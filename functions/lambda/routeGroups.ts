import type { HandlerName } from '../http/handlers';

/** The routes each deployed function serves; infra/ builds one function per group. */
export const ROUTE_GROUPS = {
  commands: ['createGame', 'postCommand', 'addViewer', 'revokeViewer', 'reissueToken', 'revokeToken', 'createTournament'],
  reads: ['getGame', 'listEvents', 'exportGame', 'verifyGame', 'head', 'keys', 'getTournament', 'exportTournament'],
  catalogue: ['health', 'listRulesets', 'evaluate', 'openapi'],
  // Its own function: the catalogue's bundle stays small, and this one holds little but the verifier's text.
  verifier: ['verifierScript'],
  // The web app's files, embedded in the bundle: no table, no key.
  web: ['webPage', 'webAsset'],
} as const satisfies Record<string, readonly HandlerName[]>;
