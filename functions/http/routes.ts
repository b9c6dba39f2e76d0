import type { HandlerName } from './handlerNames';
import { OPERATIONS } from './operations';

export interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  handler: HandlerName;
}

/** Every route of the operations table (operations.ts): the local server, the Lambda functions and the CDK stack route by it. */
export const ROUTES: readonly Route[] = OPERATIONS.map(({ method, path, handler }) => ({ method, path, handler }));

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
