import type { Commit } from '../../domain/fairness/hashChain';
import { ApplicationError } from '../application/errors';
import type { GameService } from '../application/gameService';
import { liveViewerOf } from '../application/viewers';
import { StoreUnavailable, type EventStore } from '../store/eventStore';
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

/**
 * Authorizes a subscription exactly as a read of the game is authorized (GameService: any
 * token of the game, a spectator link, a tournament's token; none for a public game; a
 * revoked or reissued-away token refused), and reads what it must catch up. Throws the
 * application's refusals (404, 401, 400) like the HTTP routes; pushErrorOf turns them into
 * messages.
 */
export async function openSubscription(
  service: GameService,
  viewers: Pick<EventStore, 'readViewers'>,
  request: SubscribeRequest,
  limits: Pick<PushLimits, 'maxCatchUp'>,
): Promise<OpenedSubscription> {
  const { gameId, token, after } = request;
  const view = await service.view(gameId, token);
  if (after > view.version) {
    throw new ApplicationError(400, 'invalid_request', `"after" (${after}) is past this game's version (${view.version}): send the last seq you hold.`);
  }
  if (view.version - after > limits.maxCatchUp) {
    throw new ApplicationError(
      400,
      'too_far_behind',
      `${view.version - after} commits follow seq ${after}; a subscribe catches up at most ${limits.maxCatchUp}: read them with GET /games/{id}/events?after=${after}, then subscribe with the last seq read.`,
    );
  }
  const identity = view.public ? 'public' : await identityOf(viewers, gameId, token!, view.role, view.sides);
  // Checks the token again on the state it reads, so a revocation between the two is refused here.
  const page = await service.events(gameId, token, after, limits.maxCatchUp);
  return { gameId, identity, rulesetId: view.ruleset, version: page.version, commits: page.commits };
}

/** Which token of the game this is, for ending its subscription when that token stops working. */
async function identityOf(
  viewers: Pick<EventStore, 'readViewers'>,
  gameId: string,
  token: string,
  role: string | null,
  sides: readonly string[],
): Promise<Identity> {
  if (role === null) throw new ApplicationError(401, 'unauthenticated', 'A token of this game is needed.');
  // GameService names a spectator link "spectator", which a side may also be called: the link's record decides.
  if (role === 'spectator') {
    const viewer = liveViewerOf(await viewers.readViewers(gameId), token);
    if (viewer) return `viewer:${viewer.viewerId}`;
    if (!sides.includes('spectator')) throw new ApplicationError(401, 'unauthenticated', 'This spectator link no longer reads this game.');
  }
  return `role:${role}`;
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
