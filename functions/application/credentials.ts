import { ORGANIZER } from '../../domain/ruleset';
import type { EventStore, IssuedToken, ViewerRecord } from '../store/eventStore';
import { ApplicationError, unauthenticated } from './errors';
import type { CachedGame } from './gameCache';
import { hashMatches, hashToken, newToken, presentedHash, randomId } from './tokens';
import type { TournamentTokens } from './tournamentTokens';
import type { Viewers } from './viewers';

/** Stands for a spectator link's holder: never a side's name, which players choose. */
export const SPECTATOR = Symbol('spectator');
export type Identity = string | typeof SPECTATOR;

/**
 * Who may read a game now: a role's token (a side's, the organizer's, or a tournament's as
 * the organizer), a spectator link (by its id, so that its revocation can be told), or anyone
 * (a public game read without a working token of its own).
 */
export type ReadAccess = { role: string } | { viewerId: string } | { public: true };


/**
 * Who holds a bearer token in a game. A role's token is the one its creation issued until
 * a TokenReissued commit names another (by token id) or a TokenRevoked withdraws it: the
 * game's commits decide, so a reissue or revocation holds the moment its commit is stored,
 * in every process that reads the game. A tournament's token acts as the organizer of its
 * games; a spectator link only reads.
 */
export class Credentials {
  constructor(
    private readonly store: EventStore,
    private readonly viewers: Viewers,
    private readonly tournaments: TournamentTokens,
  ) {}

  /** 401 for no token, or a token that is not one of this game's. */
  async identify(game: CachedGame, token: string | undefined): Promise<Identity> {
    const holder = await this.holder(game, token);
    return typeof holder === 'string' ? holder : SPECTATOR;
  }

  /**
   * Whether this token may read the game now: the one answer for every read (GET of the game,
   * its events, head and export), every long poll and every push subscription, asked when each
   * starts and again before each answer or commit it delivers (a revocation in between ends it).
   */
  async readAccess(game: CachedGame, token: string | undefined): Promise<ReadAccess> {
    if (game.state.public && !token) return { public: true };
    try {
      const holder = await this.holder(game, token);
      return typeof holder === 'string' ? { role: holder } : { viewerId: holder.viewerId };
    } catch (error) {
      // A public game reads without a token: one that does not work is as none.
      if (game.state.public && error instanceof ApplicationError && error.status === 401) return { public: true };
      throw error;
    }
  }

  /** The role, or the live spectator link, this token belongs to. */
  private async holder(game: CachedGame, token: string | undefined): Promise<string | ViewerRecord> {
    if (!token) throw unauthenticated();
    const presented = presentedHash(token);
    const matches = (hash: string) => hashMatches(presented, hash);
    const { credentials } = game.state;
    const { tokenHashes } = game.secrets;
    if (!credentials.has(ORGANIZER) && matches(tokenHashes.organizer)) return ORGANIZER;
    for (const [side, hash] of Object.entries(tokenHashes.players)) {
      if (!credentials.has(side) && matches(hash)) return side;
    }
    for (const [role, tokenId] of credentials) {
      if (tokenId === null) continue;
      const issued = await this.issuedToken(game, tokenId);
      if (issued?.role === role && matches(issued.tokenHash)) return role;
    }
    if (game.secrets.tournamentId && (await this.tournaments.holds(game.secrets.tournamentId, token))) return ORGANIZER;
    const viewer = await this.viewers.find(game, token);
    if (viewer) return viewer;
    throw unauthenticated();
  }

  /** The role a command acts as: a spectator link reads only. */
  async actingRole(game: CachedGame, token: string | undefined): Promise<string> {
    const identity = await this.identify(game, token);
    if (identity === SPECTATOR) throw new ApplicationError(403, 'forbidden', 'A spectator link reads the game; it cannot send commands.');
    return identity;
  }

  async organizerOnly(game: CachedGame, token: string | undefined, action: string): Promise<void> {
    if ((await this.identify(game, token)) !== ORGANIZER) throw new ApplicationError(403, 'forbidden', `Only the organizer may ${action}.`);
  }

  /**
   * Stores a new token for a role, hashed, under a fresh id. It works only once a
   * TokenReissued commit names that id; until then (or if that commit never lands) it is inert.
   */
  async issue(game: CachedGame, role: string, createdAt: string): Promise<{ tokenId: string; token: string }> {
    const token = newToken();
    const record: IssuedToken = { tokenId: randomId('k'), role, tokenHash: hashToken(token), createdAt };
    await this.store.addIssuedToken(game.state.gameId, record);
    if (game.issuedTokens) game.issuedTokens = [...game.issuedTokens, record];
    return { tokenId: record.tokenId, token };
  }

  /** Issued tokens never change, so a process keeps those it has read and asks again only for an id it lacks. */
  private async issuedToken(game: CachedGame, tokenId: string): Promise<IssuedToken | undefined> {
    let found = game.issuedTokens?.find((t) => t.tokenId === tokenId);
    if (!found) {
      game.issuedTokens = await this.store.readIssuedTokens(game.state.gameId);
      found = game.issuedTokens.find((t) => t.tokenId === tokenId);
    }
    return found;
  }
}
