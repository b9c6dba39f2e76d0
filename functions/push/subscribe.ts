import type { Commit } from '../../domain/fairness/hashChain';
import { ApplicationError } from '../application/errors';
import type { GameService } from '../application/gameService';
import type { ReadAccess } from '../application/credentials';
import { StoreUnavailable } from '../ports/eventStore';
import type { Identity } from './delivery';
import { pushError, type PushError, type PushErrorCode, type PushLimits, type SubscribeRequest } from './protocol';

export interface OpenedSubscription {
  gameId: string;
  identity: Identity;
  rulesetId: string;
  /** The game's version when the token was checked and the catch-up read. */
  version: number;
  /** The commits after the request's `after`, up to `version`, in order. */
  commits: Commit[];
}

/** A subscription's identity, from the one answer to who may read a game (GameService.readAccess). */
export function identityOf(access: ReadAccess): Identity {
  if ('role' in access) return `role:${access.role}`;
  if ('viewerId' in access) return `viewer:${access.viewerId}`;
  return 'public';
}

/**
 * Authorizes a subscription exactly as a read of the game is authorized (GameService.readAccess:
 * any token of the game, a spectator link, a tournament's token; none for a public game; a
 * revoked or reissued-away token refused), and reads what it must catch up. Throws the
 * application's refusals (404, 401, 400) like the HTTP routes; pushErrorOf turns them into
 * messages.
 */
export async function openSubscription(service: GameService, request: SubscribeRequest, limits: Pick<PushLimits, 'maxCatchUp'>): Promise<OpenedSubscription> {
  const { gameId, token, after } = request;
  const access = await service.readAccess(gameId, token);
  // Checks the token again on the state it reads, so a revocation between the two is refused here.
  const page = await service.events(gameId, token, after, limits.maxCatchUp);
  if (after > page.version) {
    throw new ApplicationError(400, 'invalid_request', `"after" (${after}) is past this game's version (${page.version}): send the last seq you hold.`);
  }
  if (page.version - after > limits.maxCatchUp) {
    throw new ApplicationError(
      400,
      'too_far_behind',
      `${page.version - after} commits follow seq ${after}; a subscribe catches up at most ${limits.maxCatchUp}: read them with GET /games/{id}/events?after=${after}, then subscribe with the last seq read.`,
    );
  }
  // Anyone may read a public game: no revocation ends its subscriptions.
  const identity = page.state.public ? 'public' : identityOf(access);
  return { gameId, identity, rulesetId: page.state.ruleset.id, version: page.version, commits: page.commits };
}

const KNOWN_CODES: ReadonlySet<string> = new Set<PushErrorCode>([
  'invalid_request',
  'payload_too_large',
  'unauthenticated',
  'forbidden',
  'not_found',
  'too_many_subscriptions',
  'too_many_subscribers',
  'too_far_behind',
  'rate_limited',
  'unavailable',
  'internal_error',
]);

/** A refusal as the client reads it: the application's code and words, or a plain 'unavailable' / 'internal_error'. */
export function pushErrorOf(error: unknown, gameId?: string): PushError {
  if (error instanceof ApplicationError && KNOWN_CODES.has(error.code)) return pushError(error.code as PushErrorCode, error.message, gameId);
  if (error instanceof StoreUnavailable) return pushError('unavailable', 'The service is briefly unavailable: subscribe again in a few seconds.', gameId);
  return pushError('internal_error', 'Something went wrong on our side.', gameId);
}
