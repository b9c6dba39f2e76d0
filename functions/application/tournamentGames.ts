import { bundleOf } from './exportBundle';
import type { GameHead } from '../../domain/trust/gameHead';
import type { ExportBundle } from '../../domain/verify/verifyBundle';
import type { CommitLog, GameSecretsStore } from '../ports/eventStore';
import type { Signer } from '../ports/signer';
import { ApplicationError } from './errors';
import type { GameHeads } from './gameHeads';
import type { CachedGame, GameRepository } from './gameRepository';

/** What Tournaments reads of its games: a game with its head, its head alone, its export at a head, and the signer of its heads. */
export interface TournamentGameReads {
  readonly signer: Signer;
  tournamentGame(tournamentId: string, gameId: string): Promise<{ game: CachedGame; head: GameHead } | undefined>;
  tournamentGameHead(tournamentId: string, gameId: string): Promise<GameHead | undefined>;
  tournamentExportAt(tournamentId: string, head: GameHead): Promise<ExportBundle>;
}

/** The games of tournaments, as their organizer's listing and export read them. */
export class TournamentGames implements TournamentGameReads {
  constructor(
    private readonly store: Pick<CommitLog, 'read'> & Pick<GameSecretsStore, 'readSecrets'>,
    private readonly games: GameRepository,
    private readonly heads: GameHeads,
    readonly signer: Signer,
  ) {}

  /**
   * A game of a tournament, for the listing and export its organizer reads: undefined
   * when no such game was stored (a listing whose creation failed) or it is not this
   * tournament's.
   */
  async tournamentGame(tournamentId: string, gameId: string): Promise<{ game: CachedGame; head: GameHead } | undefined> {
    let game: CachedGame;
    try {
      game = await this.games.load(gameId);
    } catch (error) {
      if (error instanceof ApplicationError && error.status === 404) return undefined;
      throw error;
    }
    if (game.secrets.tournamentId !== tournamentId) return undefined;
    const { state } = game;
    return { game, head: await this.heads.headOf(gameId, state.version, state.lastHash, state.sealed) };
  }

  /**
   * The signed head of a tournament's game where it ends now, as stored with its last
   * commit: a tournament head lists every game's without folding them. A game whose last
   * commit was stored without a head is folded; undefined as tournamentGame.
   */
  async tournamentGameHead(tournamentId: string, gameId: string): Promise<GameHead | undefined> {
    const stored = await this.heads.readLastHead(gameId);
    if (stored) return stored;
    return (await this.tournamentGame(tournamentId, gameId))?.head;
  }

  /**
   * A tournament's game exported as it stood at `head` (the tournament head lists it there),
   * read from the store without entering the cache: commands stored since are left for the
   * next export.
   */
  async tournamentExportAt(tournamentId: string, head: GameHead): Promise<ExportBundle> {
    const commits = await this.store.read(head.gameId, 0, head.seq);
    const last = commits.at(-1);
    if (last?.seq !== head.seq || last.hash !== head.lastHash) throw new Error(`game ${head.gameId} has no commit ${head.seq} under its head`);
    const created = commits[0].events[0].data as { ruleset: string; commitment: string; tournamentId?: string };
    const namedIn = created.tournamentId ?? (await this.store.readSecrets(head.gameId))?.tournamentId;
    if (namedIn !== tournamentId) throw new Error(`game ${head.gameId} is listed in a tournament it does not belong to`);
    return bundleOf({ gameId: head.gameId, ruleset: created.ruleset, commitment: created.commitment }, commits, head, this.signer);
  }
}
