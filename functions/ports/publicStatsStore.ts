import type { DieSizeAggregate } from '../../domain/stats/publicStats';

/**
 * The public dice statistics (docs/fairness-stats.md): by die size, the face counts of
 * every sealed game that counts publicly, and the ids of the games added, so that a game is
 * added once however often its sealing is retried.
 */
export interface PublicStatsStore {
  /** Adds the game's face counts (by die size) to each die size's record it is not in yet. */
  addGame(gameId: string, countsBySides: ReadonlyMap<number, readonly number[]>): Promise<void>;
  /** Every die size's record, without the game ids. */
  readAll(): Promise<DieSizeAggregate[]>;
}
