import { gameKeyOf } from '../../domain/fairness/gameKey';
import type { GameState } from '../../domain/game/gameState';
import type { GameSecrets, GameSecretsStore, SeedStore } from '../ports/eventStore';
import type { SeedVault } from '../ports/seedVault';
import type { CachedGame, GameRepository } from './gameRepository';
import { KeyedLock } from './keyedLock';

/** A game stored before seeds had an item of their own (or were encrypted): moved on its next command. */
const hasLegacySeed = (secrets: GameSecrets) => secrets.serverSeed !== undefined || secrets.sealedSeed !== undefined;

/** The server seeds: opened only here, for the code that rolls and seals. */
export class GameSeeds {
  constructor(
    private readonly store: SeedStore & GameSecretsStore,
    private readonly vault: SeedVault,
    private readonly games: GameRepository,
    private readonly locks: KeyedLock,
  ) {}

  /** The server seed of a game, opened. */
  async serverSeed(game: CachedGame): Promise<Buffer> {
    const { secrets } = game;
    if (secrets.serverSeed !== undefined) return Buffer.from(secrets.serverSeed, 'hex');
    if (game.sealedSeed === undefined) {
      const sealed = (await this.store.readSeed(game.state.gameId)) ?? secrets.sealedSeed;
      if (sealed !== undefined) this.games.keepSealedSeed(game, sealed);
    }
    if (game.sealedSeed === undefined) throw new Error(`game ${game.state.gameId} has no seed`);
    return this.vault.open(game.state.gameId, game.sealedSeed);
  }

  /** The game key for a state's entropy (fairness-v1 §3): derived once for each list of contributions, not per die. */
  async gameKey(game: CachedGame, state: GameState): Promise<Uint8Array> {
    const entropy = JSON.stringify(state.entropy);
    if (game.gameKey?.entropy !== entropy) this.games.keepGameKey(game, { entropy, key: gameKeyOf(await this.serverSeed(game), state.gameId, state.entropy) });
    return game.gameKey!.key;
  }

  /**
   * A game stored before seeds were encrypted, or before they had an item of their own, has
   * its seed encrypted and moved there the first time a command reaches it.
   */
  async moveLegacySeed(game: CachedGame): Promise<void> {
    if (!hasLegacySeed(game.secrets)) return;
    await this.locks.run(game.state.gameId, async () => {
      const { serverSeed, sealedSeed, ...rest } = game.secrets;
      if (!hasLegacySeed(game.secrets)) return;
      const { gameId } = game.state;
      const sealed = serverSeed !== undefined ? await this.vault.seal(gameId, Buffer.from(serverSeed, 'hex')) : sealedSeed!;
      await this.store.writeSeed(gameId, sealed);
      await this.store.replaceSecrets(gameId, rest);
      this.games.seedMoved(game, rest, sealed);
    });
  }
}
