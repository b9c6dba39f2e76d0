import middy from '@middy/core';
import { errorMapper, jsonBody, type ParsedEvent } from './middleware';
import { requestRecorder, type Observer } from './observe';
import type { HttpEvent, HttpResult } from './respond';

export type Handler = (event: HttpEvent, context?: unknown) => Promise<HttpResult>;

/** Wraps a route in the middlewares every route shares. */
export function route(fn: (event: ParsedEvent) => Promise<HttpResult> | HttpResult, observer: Observer): Handler {
  // middy runs `before` in this order and `after`/`onError` in reverse: the recorder sees the mapped error.
  return middy<ParsedEvent, HttpResult>(async (event: ParsedEvent) => fn(event))
    .use(requestRecorder(observer))
    .use(errorMapper(observer.unexpected))
    .use(jsonBody()) as unknown as Handler;
}
