import * as z from 'zod';
import { playerText } from '../../domain/playerText';
import type { ViewerRecord, ViewerStore } from '../ports/eventStore';
import type { CachedGame, GameRepository } from './gameRepository';
import { hashMatches, presentedHash } from './tokens';

export const ViewerRequest = z.strictObject({
  label: playerText(64).optional().describe('who the link is for, e.g. "club stream"'),
});

/** A link as GET /games/{id}/viewers lists it: what the organizer needs to tell links apart and revoke one, never its token or hash. */
export interface ViewerListing {
  viewerId: string;
  label?: string;
  createdAt: string;
  revoked: boolean;
}

/** The live (not revoked) link among these that this token belongs to. */
export function liveViewerOf(viewers: readonly ViewerRecord[], token: string): ViewerRecord | undefined {
  const presented = presentedHash(token);
  return viewers.find((v) => !v.revoked && hashMatches(presented, v.tokenHash));
}

/**
 * Read-only spectator links: a viewer token reads a game, its events, head and export,
 * and nothing else. A sole writer keeps a game's viewers with its cached fold; other
 * processes ask the store each time, so a revocation holds everywhere at once.
 */
export class Viewers {
  constructor(
    private readonly store: ViewerStore,
    private readonly games: GameRepository,
    private readonly soleWriter: boolean,
  ) {}

  /** The live (not revoked) viewer this token belongs to. */
  async find(game: CachedGame, token: string): Promise<ViewerRecord | undefined> {
    return liveViewerOf(await this.list(game), token);
  }

  /** Every link of the game, revoked ones too. */
  all(game: CachedGame): Promise<readonly ViewerRecord[]> {
    return this.list(game);
  }

  async add(game: CachedGame, viewer: ViewerRecord): Promise<void> {
    await this.store.addViewer(game.state.gameId, viewer);
    this.games.viewerAdded(game, viewer);
  }

  async revoke(game: CachedGame, viewerId: string): Promise<boolean> {
    const revoked = await this.store.revokeViewer(game.state.gameId, viewerId);
    if (revoked) this.games.viewerRevoked(game, viewerId);
    return revoked;
  }

  private async list(game: CachedGame): Promise<ViewerRecord[]> {
    if (!this.soleWriter) return this.store.readViewers(game.state.gameId);
    if (!game.viewers) this.games.keepViewers(game, await this.store.readViewers(game.state.gameId));
    return game.viewers!;
  }
}
