import type { MiddlewareObj } from '@middy/core';
import { BeaconPending, DomainError } from '../../domain/errors';
import { beaconPendingAnswer } from '../application/beaconAnswers';
import { ApplicationError, invalidRequest, type FieldIssue } from '../application/errors';
import { recordTooLarge } from '../application/recordSize';
import { StoreUnavailable } from '../ports/eventStore';
import { ItemTooLarge } from '../store/itemSize';
import { statusOf } from './errorCatalogue';
import { jsonProblem } from './jsonLimits';
import { OPERATIONS } from './operations';
import type { CheckedParameters, Parameter } from './parameters';
import { errorAnswer } from './errorAnswer';
import { header, type HttpEvent, type HttpResult } from './respond';

export const MAX_BODY_BYTES = 64 * 1024;

export interface ParsedEvent extends HttpEvent, CheckedParameters {
  parsedBody?: unknown;
  /** What the handler learned, for the request record (observe.ts). */
  observed?: { seq?: number; commandType?: string };
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Parses a JSON body: 413 over 64 KB; 400 when it is not UTF-8, not JSON, nested too deep or holds a lone surrogate. */
export function jsonBody(ignored = false): MiddlewareObj<ParsedEvent, HttpResult> {
  return {
    name: 'jsonBody',
    before: (request) => {
      const event = request.event;
      if (event.body === undefined || event.body === null || event.body === '') {
        event.parsedBody = undefined;
        return;
      }
      const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64') : Buffer.from(event.body, 'utf8');
      if (raw.length > MAX_BODY_BYTES) {
        throw new ApplicationError(413, 'payload_too_large', `A request body may be at most ${MAX_BODY_BYTES} bytes.`, {
          maxBytes: MAX_BODY_BYTES,
        });
      }
      // A route that reads no body (a form's POST, a mail client's one-click unsubscribe) takes any, bounded.
      if (ignored) {
        event.parsedBody = undefined;
        return;
      }
      let text: string;
      try {
        text = strictUtf8.decode(raw);
      } catch {
        throw invalidRequest([{ field: '(body)', message: 'is not valid UTF-8' }]);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        throw invalidRequest([{ field: '(body)', message: `is not valid JSON: ${(error as Error).message}` }]);
      }
      const problem = jsonProblem(parsed);
      if (problem) throw invalidRequest([problem]);
      event.parsedBody = parsed;
    },
  };
}

const PARAMETERS_BY_ROUTE_KEY = new Map<string, readonly Parameter[]>(OPERATIONS.map((o) => [`${o.method} ${o.path}`, o.parameters ?? []]));

/**
 * Checks the path and query parameters the operations table declares for the route (operations.ts), before the handler runs:
 * one 400 naming every refused one, in the table's order; otherwise the handler finds the typed values in `params` and `query`.
 * Undeclared query parameters are ignored, as they always were.
 */
export function requestParameters(): MiddlewareObj<ParsedEvent, HttpResult> {
  return {
    name: 'requestParameters',
    before: (request) => {
      const event = request.event;
      const declared = PARAMETERS_BY_ROUTE_KEY.get(event.routeKey);
      if (!declared) {
        // A handler called with no route of the table (a test, a tool): its path segments as given, and no query.
        event.params = new Map(Object.entries(event.pathParameters ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined));
        return;
      }
      const params = new Map<string, string>();
      const query = new Map<string, unknown>();
      const issues: FieldIssue[] = [];
      for (const parameter of declared) {
        if (!parameter.check || parameter.in === 'header') continue;
        const source = parameter.in === 'path' ? event.pathParameters : event.queryStringParameters;
        const raw = source && Object.hasOwn(source, parameter.name) ? source[parameter.name] : undefined;
        const checked = parameter.check(raw);
        if ('problem' in checked) issues.push({ field: parameter.name, message: checked.problem });
        else if (parameter.in === 'path') params.set(parameter.name, checked.value as string);
        else query.set(parameter.name, checked.value);
      }
      if (issues.length) throw invalidRequest(issues);
      event.params = params;
      event.query = query;
    },
  };
}

/** Every error becomes `{ error: { code, message, details? } }`, or its one line under Accept: text/plain; never a stack trace. */
export function errorMapper(unexpected: (error: Error, requestId: string) => void): MiddlewareObj<HttpEvent, HttpResult> {
  return {
    name: 'errorMapper',
    onError: (request) => {
      // The error alone is logged: requests, tokens and seeds never are.
      request.response = toErrorResponse(request.error, (error) => unexpected(error, request.context?.awsRequestId ?? '-'), header(request.event, 'accept'));
    },
  };
}

/** The answer to an error; `accept` is the request's Accept header (text/plain: one line). */
export function toErrorResponse(error: unknown, onUnexpected: (error: Error) => void = () => {}, accept?: string): HttpResult {
  // The service answers it with its own clock (beaconAnswers.ts); one that reaches here unanswered, by this one.
  if (error instanceof BeaconPending) return toErrorResponse(beaconPendingAnswer(error, Date.now()), onUnexpected, accept);
  if (error instanceof ApplicationError) return errorAnswer(accept, error.status, error.code, error.message, error.details, error.headers);
  if (error instanceof DomainError) return errorAnswer(accept, domainStatus(error), error.code, error.message, error.details);
  // A write the store refused for its size (a game's creation whose record would not fit): nothing was stored.
  if (error instanceof ItemTooLarge) return toErrorResponse(recordTooLarge(error.bytes, error.maxBytes), onUnexpected, accept);
  if (error instanceof StoreUnavailable) {
    return errorAnswer(accept, 503, 'unavailable', error.message, undefined, { 'retry-after': '1' });
  }
  onUnexpected(error instanceof Error ? error : new Error(String(error)));
  return errorAnswer(accept, 500, 'internal_error', 'Something went wrong on our side. Retrying with the same commandId is safe: a command is never applied twice.');
}

/** The rules' refusals answer the catalogue's status; a code it does not list is what the rules refuse now. */
function domainStatus(error: DomainError): number {
  return statusOf(error.code) ?? 422;
}
