import type { Commit } from '../../domain/fairness/hashChain';
import { countsPublicly, gameStats, isSealed, tallyDice, totalCounts, type GameStats } from '../../domain/stats/gameStats';
import { publicStats, type PublicStats } from '../../domain/stats/publicStats';
import type { CommitLog } from '../ports/eventStore';
import type { PublicStatsStore } from '../ports/publicStatsStore';
import type { Credentials } from './credentials';
import { ApplicationError } from './errors';
import type { GameRepository } from './gameRepository';

/** For services that keep no public statistics (the bench, the push functions): nothing added, nothing to show. */
export const noPublicStats: PublicStatsStore = { addGame: async () => {}, readAll: async () => [] };

export interface FairnessStatsDeps {
  store: CommitLog;
  games: GameRepository;
  credentials: Credentials;
  publicStats: PublicStatsStore;
}

/**
 * Dice statistics (docs/fairness-stats.md): a game's once it is sealed, and the public ones
 * over every sealed game that did not opt out. The figures are the domain's (domain/stats),
 * computed from the commits as an export holds them, so the verifier re-derives them offline.
 */
export class FairnessStats {
  constructor(private readonly deps: FairnessStatsDeps) {}

  /** GET /games/{id}/stats: for the game's readers, and only once it is sealed. */
  async ofGame(gameId: string, token: string | undefined): Promise<GameStats> {
    const game = await this.deps.games.load(gameId);
    await this.deps.credentials.readAccess(game, token);
    if (!game.state.sealed) {
      throw new ApplicationError(409, 'game_not_sealed', 'Dice statistics are shown once the organizer seals the game: while it is played, they would only feed suspicion on too few rolls.');
    }
    return gameStats(gameId, await this.deps.store.read(gameId, 0));
  }

  /**
   * After a command's commit is stored (or returned to a retry): a sealing adds the game's
   * dice to the public statistics, unless the game opted out. A retried sealing adds
   * nothing twice (the store keeps the games it added).
   */
  async afterCommit(commit: Commit): Promise<void> {
    if (!commit.events.some((event) => event.type === 'GameSealed')) return;
    await this.addSealedGame(commit.gameId);
  }

  /** Adds a sealed game's dice to the public statistics, unless it opted out; adding a game twice counts it once. */
  async addSealedGame(gameId: string): Promise<void> {
    const commits = await this.deps.store.read(gameId, 0);
    if (!isSealed(commits) || !countsPublicly(commits)) return;
    const counts = new Map([...tallyDice(commits)].map(([sides, byRole]) => [sides, totalCounts(sides, byRole)]));
    if (counts.size > 0) await this.deps.publicStats.addGame(gameId, counts);
  }

  /** GET /stats. */
  async publicFigures(): Promise<PublicStats> {
    return publicStats(await this.deps.publicStats.readAll());
  }
}
