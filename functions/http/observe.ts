import type { MiddlewareObj } from '@middy/core';
import type { ParsedEvent } from './middleware';
import type { HttpResult } from './respond';

/** What one request leaves in the logs and metrics: never a body, token, seed or key. */
export interface RequestRecord {
  route: string;
  status: number;
  latencyMs: number;
  outcome: 'ok' | 'refused' | 'error';
  gameId?: string;
  seq?: number;
  commandType?: string;
  errorCode?: string;
}

export interface Observer {
  /** An error no route expected: logged with its stack, once. */
  unexpected(error: Error, requestId: string): void;
  request?(record: RequestRecord): void;
}

export const consoleObserver: Observer = {
  unexpected: (error, requestId) => console.error(`[${requestId}] unexpected ${error.name}: ${error.message}\n${error.stack ?? ''}`),
};

/** Notes what a handler learned (the seq it stored, the command type) for the request record. */
export function observe(event: ParsedEvent, fields: Pick<RequestRecord, 'seq' | 'commandType'>): void {
  event.observed = { ...event.observed, ...fields };
}

/** Times every request and hands its record to the observer, after the error mapping. */
export function requestRecorder(observer: Observer): MiddlewareObj<ParsedEvent, HttpResult> {
  const started = new WeakMap<object, number>();
  const record = (request: { event: ParsedEvent; response: HttpResult | null }) => {
    if (!observer.request) return;
    const { event, response } = request;
    const status = response?.statusCode ?? 500;
    let errorCode: string | undefined;
    if (status >= 400) {
      try {
        errorCode = JSON.parse(response?.body ?? '{}').error?.code;
      } catch {
        errorCode = undefined;
      }
    }
    observer.request({
      route: event.routeKey,
      status,
      latencyMs: Date.now() - (started.get(event) ?? Date.now()),
      outcome: status >= 500 ? 'error' : status >= 400 ? 'refused' : 'ok',
      ...(event.pathParameters?.id ? { gameId: event.pathParameters.id.slice(0, 64) } : {}),
      ...event.observed,
      ...(errorCode ? { errorCode } : {}),
    });
  };
  return {
    name: 'requestRecorder',
    before: (request) => {
      started.set(request.event, Date.now());
    },
    after: record,
    onError: record,
  };
}
