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

export interface FieldIssue {
  field: string;
  message: string;
}

export const invalidRequest = (issues: FieldIssue[], message?: string) =>
  new ApplicationError(400, 'invalid_request', message ?? `Invalid request: ${issues.map((i) => `${i.field}: ${i.message}`).join('; ')}`, { issues });

export const notFound = (what = 'No such game.') => new ApplicationError(404, 'not_found', what);

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
