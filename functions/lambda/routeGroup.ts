import type { Context } from 'aws-lambda';
import type { Handler } from '../http/route';
import { errorAnswer } from '../http/errorAnswer';
import { header, type HttpEvent, type HttpResult } from '../http/respond';
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
      if (!handler) return errorAnswer(header(event, 'accept'), 404, 'not_found', `No route ${event.routeKey} in this function.`);
      return await handler(event, context);
    } finally {
      metrics.publishStoredMetrics();
    }
  };
}

/** Keeps the named handlers only: a function serves its group's operations (routeGroups.ts) and no other. */
export function pick(handlers: Readonly<Record<string, Handler>>, names: readonly string[]): Partial<Record<string, Handler>> {
  const picked: Partial<Record<string, Handler>> = {};
  for (const name of names) {
    if (!Object.hasOwn(handlers, name)) throw new Error(`no handler ${name} for this function`);
    picked[name] = handlers[name];
  }
  return picked;
}
