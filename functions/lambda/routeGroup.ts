import type { Context } from 'aws-lambda';
import type { Handler } from '../http/route';
import { errorBody, json, type HttpEvent, type HttpResult } from '../http/respond';
import { ROUTES } from '../http/routes';
import { logger, metrics } from './powertools';

/**
 * One Lambda function serving a group of routes: API Gateway names the route in
 * `routeKey`, and the same handlers as the local server answer it.
 */
export function routeGroup(handlers: Partial<Record<string, Handler>>) {
  const byRouteKey = new Map<string, Handler>();
  for (const r of ROUTES) {
    const handler = handlers[r.handler];
    if (handler) byRouteKey.set(`${r.method} ${r.path}`, handler);
  }
  return async (event: HttpEvent, context: Context): Promise<HttpResult> => {
    logger.addContext(context);
    try {
      const handler = byRouteKey.get(event.routeKey);
      if (!handler) return json(404, errorBody('not_found', `No route ${event.routeKey} in this function.`));
      return await handler(event, context);
    } finally {
      metrics.publishStoredMetrics();
    }
  };
}

/** Keeps the named handlers only. */
export function pick<T extends Record<string, Handler>, K extends keyof T>(handlers: T, names: readonly K[]): Pick<T, K> {
  return Object.fromEntries(names.map((n) => [n, handlers[n]])) as Pick<T, K>;
}
