import middy from '@middy/core';
import { errorMapper, jsonBody, requestParameters, type ParsedEvent } from './middleware';
import { requestRecorder, type Observer } from './observe';
import { compressed, type HttpEvent, type HttpResult } from './respond';

export type Handler = (event: HttpEvent, context?: unknown) => Promise<HttpResult>;

/** Wraps a route in the middlewares every route shares; the answer is gzipped last, when the client accepts it (respond.ts). */
export function route(fn: (event: ParsedEvent) => Promise<HttpResult> | HttpResult, observer: Observer, options: { ignoresBody?: boolean } = {}): Handler {
  // middy runs `before` in this order and `after`/`onError` in reverse: the recorder sees the mapped error.
  const handler = middy<ParsedEvent, HttpResult>(async (event: ParsedEvent) => fn(event))
    .use(requestRecorder(observer))
    .use(errorMapper(observer.unexpected))
    .use(jsonBody(options.ignoresBody))
    // After the body: a body that is not JSON is refused before a query out of range, as it always was.
    .use(requestParameters()) as unknown as Handler;
  return async (event, context) => compressed(event, await handler(event, context));
}
