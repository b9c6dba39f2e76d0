import type { HandlerName } from '../http/handlers';

/** The routes each deployed function serves; infra/ builds one function per group. */
export const ROUTE_GROUPS = {
  // A tournament's export carries a tournament head signed when it is made (trust.md §7): only commands may sign.
  commands: ['createGame', 'postCommand', 'addViewer', 'revokeViewer', 'reissueToken', 'revokeToken', 'createTournament', 'exportTournament'],
  reads: ['getGame', 'listEvents', 'exportGame', 'verifyGame', 'head', 'keys', 'getTournament'],
  catalogue: ['health', 'listRulesets', 'evaluate', 'openapi', 'tableSchema', 'validateTable'],
  // Its own function: the catalogue's bundle stays small, and this one holds little but the verifier's text.
  verifier: ['verifierScript'],
  // The web app's files, embedded in the bundle: no table, no key.
  web: ['webPage', 'webAsset'],
  // The API reference page: RapiDoc's script alone is about 215 KB gzipped, too much to share the web app's bundle.
  docs: ['apiDocsPage', 'apiDocsAsset'],
} as const satisfies Record<string, readonly HandlerName[]>;
