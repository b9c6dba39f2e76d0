/** Refusals of the application layer; the HTTP layer maps each to its status. */
export class ApplicationError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
    /** Headers the answer carries (Retry-After on a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApplicationError';
  }
}

/** One refused field: `message` is a phrase that follows the field's name ("needs at least 1 item"); `valid` lists what it may be, when that is a short list. */
export interface FieldIssue {
  field: string;
  message: string;
  valid?: unknown[];
}

/** The field as the message names it: `payload.dice`, or "the body" for the body as a whole. */
const fieldLabel = (field: string) => (field === '(body)' ? 'the body' : `\`${field}\``);

/** A phrase that follows its field ("needs at least 1 item") reads on from the name; a sentence of its own ("a commandId is …") after a colon. */
const FOLLOWS_FIELD = /^(must|needs|is|may|does|has|holds|matches|cannot)\b/;
const fieldProblem = (issue: FieldIssue) => `${fieldLabel(issue.field)}${FOLLOWS_FIELD.test(issue.message) ? ' ' : ': '}${issue.message}`;

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

export const invalidRequest = (issues: FieldIssue[], message?: string) =>
  new ApplicationError(400, 'invalid_request', message ?? sentence(`Invalid request: ${issues.map(fieldProblem).join('; ')}`), { issues });

export const notFound = (what = 'No such game.', valid?: readonly string[]) => new ApplicationError(404, 'not_found', what, valid ? { valid: [...valid] } : undefined);

export const unauthenticated = (message = 'A bearer token of this game is needed (Authorization: Bearer <token>).') =>
  new ApplicationError(401, 'unauthenticated', message);

export const versionConflict = (currentVersion: number) =>
  new ApplicationError(409, 'version_conflict', `The game is at version ${currentVersion}, not the expected one.`, { currentVersion });

export const commandIdReused = (seq: number) =>
  new ApplicationError(
    409,
    'command_id_reused',
    `This commandId was already used, at seq ${seq}, for a different command. Use a new commandId for a new command.`,
    { seq },
  );
