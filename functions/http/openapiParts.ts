import { errorLine } from './errorAnswer';
import { defaultCodes, errorEntry, STATUS_MEANING, type ErrorCode } from './errorCatalogue';
import { ERROR_EXAMPLES } from './openapiExamples';

/** Pieces of the OpenAPI document that the operations table (operations.ts) and the generator (openapi.ts) share. */
export type Json = Record<string, unknown>;

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const jsonContent = (schema: unknown, examples?: Json) => ({ 'application/json': { schema, ...examples } });
export const one = (value: unknown) => ({ example: value });

/** An error status an operation answers: the status alone (its meaning and codes from the catalogue), or with its own words and codes. */
export type ErrorSpec = number | [status: number, description: string, codes?: ErrorCode[]];

/** The error's one line, answered instead of the JSON when Accept prefers text/plain (errorAnswer.ts). */
const ERROR_LINE = {
  type: 'string',
  description: 'one line, ended by a line feed: `<status> <code>: <message>`, then the short details in parentheses; escaped as the chat-log lines are',
};

/**
 * Error answers: `{ error: { code, message, details? } }`, or its one line of text when Accept prefers text/plain; one example
 * per code in each; Retry-After where the catalogue says so. Every operation may answer 500.
 */
export function errorResponses(specs: readonly ErrorSpec[]): Json {
  const all: ErrorSpec[] = [...specs, 500];
  return Object.fromEntries(
    all.map((spec) => {
      const [status, description, codes] =
        typeof spec === 'number' ? [spec, STATUS_MEANING.get(spec)!, defaultCodes(spec)] : [spec[0], spec[1], spec[2] ?? defaultCodes(spec[0])];
      const examples = Object.fromEntries(codes.map((code) => [code, { value: { error: { code, ...ERROR_EXAMPLES[code] } } }]));
      const lines = Object.fromEntries(codes.map((code) => [code, { value: `${errorLine(status, code, ERROR_EXAMPLES[code].message, ERROR_EXAMPLES[code].details)}\n` }]));
      return [
        String(status),
        {
          description,
          ...(codes.some((code) => errorEntry(code).retryAfter) ? { headers: { 'Retry-After': { $ref: '#/components/headers/RetryAfter' } } } : {}),
          content: { ...jsonContent(ref('Error'), { examples }), 'text/plain': { schema: ERROR_LINE, examples: lines } },
        },
      ];
    }),
  );
}

/** Routes that take no body still parse one: a body that is not JSON is a 400, one over 64 KB a 413. */
export const BODY_NOT_JSON: ErrorSpec = [400, 'invalid_request: this route takes no body, and the one sent is not JSON'];
