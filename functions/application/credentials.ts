import type { GameState } from '../../domain/game/gameState';
import { ORGANIZER } from '../../domain/ruleset';
import type { IssuedToken, IssuedTokenStore, ViewerRecord } from '../ports/eventStore';
import { ApplicationError, unauthenticated } from './errors';
import type { CachedGame, GameRepository } from './gameRepository';
import { hashMatches, hashToken, newToken, presentedHash, randomId } from './tokens';
import type { TournamentTokens } from './tournamentTokens';
import type { Viewers } from './viewers';

/**
 * Who may read a game now: a role's token (a side's, the organizer's, or a tournament's as
 * the organizer), a spectator link (by its id, so that its revocation can be told), or anyone
 * (a public game read without a working token of its own).
 */
export type ReadAccess = { role: string } | { viewerId: string } | { public: true };

/**
 * A command's token, checked once: the role it acts as and what made it that role's (the
 * creation's token, a reissued one by id, or the tournament's), so that the state each
 * command is decided on can tell, without checking the token again, whether a commit
 * since (a reissue or a revocation) ended it.
 */
export interface ActingToken {
  role: string;
  by: 'creation' | 'tournament' | { tokenId: string };
}

type Holder = ActingToken | ViewerRecord;
const isActing = (holder: Holder): holder is ActingToken => 'role' in holder && 'by' in holder;

/** Whether a token checked on an earlier state still acts on `state`. */
export function stillActs({ role, by }: ActingToken, state: GameState): boolean {
  if (by === 'tournament') return true;
  if (by === 'creation') return !state.credentials.has(role);
  return state.credentials.get(role) === by.tokenId;
}


/**
 * Who holds a bearer token in a game. A role's token is the one its creation issued until
 * a TokenReissued commit names another (by token id) or a TokenRevoked withdraws it: the
 * game's commits decide, so a reissue or revocation holds the moment its commit is stored,
 * in every process that reads the game. A tournament's token acts as the organizer of its
 * games; a spectator link only reads.
 */
export class Credentials {
  constructor(
    private readonly store: IssuedTokenStore,
    private readonly games: GameRepository,
    private readonly viewers: Viewers,
    private readonly tournaments: TournamentTokens,
  ) {}

  /**
   * Whether this token may read the game now: the one answer for every read (GET of the game,
   * its events, head and export), every long poll and every push subscription, asked when each
   * starts and again before each answer or commit it delivers (a revocation in between ends it).
   */
  async readAccess(game: CachedGame, token: string | undefined): Promise<ReadAccess> {
    if (game.state.public && !token) return { public: true };
    try {
      const holder = await this.holder(game, token);
      return isActing(holder) ? { role: holder.role } : { viewerId: holder.viewerId };
    } catch (error) {
      // A public game reads without a token: one that does not work is as none.
      if (game.state.public && error instanceof ApplicationError && error.status === 401) return { public: true };
      throw error;
    }
  }

  /** The role, or the live spectator link, this token belongs to. */
  private async holder(game: CachedGame, token: string | undefined): Promise<Holder> {
    if (!token) throw unauthenticated();
    const presented = presentedHash(token);
    const matches = (hash: string) => hashMatches(presented, hash);
    const { credentials } = game.state;
    const { tokenHashes } = game.secrets;
    if (!credentials.has(ORGANIZER) && matches(tokenHashes.organizer)) return { role: ORGANIZER, by: 'creation' };
    for (const [side, hash] of Object.entries(tokenHashes.players)) {
      if (!credentials.has(side) && matches(hash)) return { role: side, by: 'creation' };
    }
    for (const [role, tokenId] of credentials) {
      if (tokenId === null) continue;
      const issued = await this.issuedToken(game, tokenId);
      if (issued?.role === role && matches(issued.tokenHash)) return { role, by: { tokenId } };
    }
    if (game.secrets.tournamentId && (await this.tournaments.holds(game.secrets.tournamentId, token))) return { role: ORGANIZER, by: 'tournament' };
    const viewer = await this.viewers.find(game, token);
    if (viewer) return viewer;
    throw unauthenticated();
  }

  /** The token a command acts with, checked once: a spectator link reads only. */
  async acting(game: CachedGame, token: string | undefined): Promise<ActingToken> {
    const holder = await this.holder(game, token);
    if (!isActing(holder)) throw new ApplicationError(403, 'forbidden', 'A spectator link reads the game; it cannot send commands.');
    return holder;
  }

  /** The organizer's token, checked once; 403 for any other of the game's. */
  async organizerOnly(game: CachedGame, token: string | undefined, action: string): Promise<ActingToken> {
    const holder = await this.holder(game, token);
    if (!isActing(holder) || holder.role !== ORGANIZER) throw new ApplicationError(403, 'forbidden', `Only the organizer may ${action}.`);
    return holder;
  }

  /**
   * Stores a new token for a role, hashed, under a fresh id. It works only once a
   * TokenReissued commit names that id; until then (or if that commit never lands) it is inert.
   */
  async issue(game: CachedGame, role: string, createdAt: string): Promise<{ tokenId: string; token: string }> {
    const token = newToken();
    const record: IssuedToken = { tokenId: randomId('k'), role, tokenHash: hashToken(token), createdAt };
    await this.store.addIssuedToken(game.state.gameId, record);
    this.games.tokenIssued(game, record);
    return { tokenId: record.tokenId, token };
  }

  /** Issued tokens never change, so a process keeps those it has read and asks again only for an id it lacks. */
  private async issuedToken(game: CachedGame, tokenId: string): Promise<IssuedToken | undefined> {
    let found = game.issuedTokens?.find((t) => t.tokenId === tokenId);
    if (!found) {
      const tokens = await this.store.readIssuedTokens(game.state.gameId);
      this.games.keepIssuedTokens(game, tokens);
      found = tokens.find((t) => t.tokenId === tokenId);
    }
    return found;
  }
}
