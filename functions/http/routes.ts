import type { HandlerName } from './handlers';

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  handler: HandlerName;
}

/** Every route of http-api.md, once: the local server and the CDK stack both read this table. */
export const ROUTES: readonly Route[] = [
  { method: 'GET', path: '/health', handler: 'health' },
  { method: 'GET', path: '/rulesets', handler: 'listRulesets' },
  { method: 'POST', path: '/rulesets/{ruleset}/evaluate', handler: 'evaluate' },
  { method: 'GET', path: '/schemas/table.json', handler: 'tableSchema' },
  { method: 'POST', path: '/tables/validate', handler: 'validateTable' },
  { method: 'POST', path: '/games', handler: 'createGame' },
  { method: 'GET', path: '/games/{id}', handler: 'getGame' },
  { method: 'POST', path: '/games/{id}/commands', handler: 'postCommand' },
  { method: 'GET', path: '/games/{id}/events', handler: 'listEvents' },
  { method: 'GET', path: '/games/{id}/export', handler: 'exportGame' },
  { method: 'GET', path: '/games/{id}/verify', handler: 'verifyGame' },
  { method: 'GET', path: '/games/{id}/head', handler: 'head' },
  { method: 'POST', path: '/games/{id}/viewers', handler: 'addViewer' },
  { method: 'DELETE', path: '/games/{id}/viewers/{viewerId}', handler: 'revokeViewer' },
  { method: 'POST', path: '/games/{id}/tokens/{role}', handler: 'reissueToken' },
  { method: 'DELETE', path: '/games/{id}/tokens/{role}', handler: 'revokeToken' },
  { method: 'POST', path: '/tournaments', handler: 'createTournament' },
  { method: 'GET', path: '/tournaments/{id}', handler: 'getTournament' },
  { method: 'GET', path: '/tournaments/{id}/export', handler: 'exportTournament' },
  { method: 'GET', path: '/keys', handler: 'keys' },
  { method: 'GET', path: '/verifier.mjs', handler: 'verifierScript' },
  { method: 'GET', path: '/openapi.json', handler: 'openapi' },
  { method: 'GET', path: '/docs', handler: 'apiDocsPage' },
  { method: 'GET', path: '/docs/assets/{file}', handler: 'apiDocsAsset' },
  { method: 'GET', path: '/', handler: 'webPage' },
  { method: 'GET', path: '/assets/{file}', handler: 'webAsset' },
];

export interface RouteMatch {
  route: Route;
  pathParameters: Record<string, string>;
}

/** Matches a path against the table; `pathKnown` true when only the method differs. */
export function matchRoute(method: string, path: string): RouteMatch | { route: undefined; pathKnown: boolean } {
  const parts = path.split('/').filter(Boolean);
  let pathMatched = false;
  for (const route of ROUTES) {
    const template = route.path.split('/').filter(Boolean);
    if (template.length !== parts.length) continue;
    const params: Record<string, string> = {};
    const ok = template.every((segment, i) => {
      if (segment.startsWith('{')) {
        try {
          params[segment.slice(1, -1)] = decodeURIComponent(parts[i]);
        } catch {
          return false;
        }
        return true;
      }
      return segment === parts[i];
    });
    if (!ok) continue;
    pathMatched = true;
    if (route.method === method) return { route, pathParameters: params };
  }
  return { route: undefined, pathKnown: pathMatched };
}
