import { evolveGame, type GameState } from '../../domain/game/gameState';
import type { EventStore, GameSecrets, IssuedToken, ViewerRecord } from '../store/eventStore';
import { notFound } from './errors';

export interface CachedGame {
  state: GameState;
  secrets: GameSecrets;
  /** The sealed server seed, once read from its item (only by the functions that roll). */
  sealedSeed?: string;
  /** The game key for the entropy so far: derived once, not per die. */
  gameKey?: { entropyCount: number; key: Uint8Array };
  /** Its spectator links, once read (kept by a sole writer only: viewers.ts). */
  viewers?: ViewerRecord[];
  /** The tokens issued after creation that this process has read (credentials.ts). */
  issuedTokens?: IssuedToken[];
}

/**
 * The folded games of a warm process, most recently used last. One fold per game at a
 * time: concurrent first requests share one load, so a command and a read sent together
 * to a cold game meet on the same state and a reader never sees less than an
 * acknowledged write.
 */
export class GameCache {
  private readonly games = new Map<string, CachedGame>();
  private readonly loading = new Map<string, Promise<CachedGame>>();

  constructor(
    private readonly store: EventStore,
    private readonly size: number,
    /** This process is its store's only writer: a cached game is always current. */
    private readonly soleWriter: boolean,
  ) {}

  peek(gameId: string): CachedGame | undefined {
    return this.games.get(gameId);
  }

  forget(gameId: string): void {
    this.games.delete(gameId);
  }

  /** After an append: this game is current, unless the cache already holds a newer fold. */
  offer(gameId: string, game: CachedGame): void {
    const cached = this.games.get(gameId);
    if (!cached || cached.state.version < game.state.version) this.remember(gameId, game);
  }

  /** The folded game, brought up to date; `fromStore` asks the store even of a sole writer. */
  async load(gameId: string, fromStore = false): Promise<CachedGame> {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(gameId)) throw notFound();
    const game = this.games.get(gameId);
    if (!game) return this.loadCold(gameId);
    if (this.soleWriter && !fromStore) return game;
    for (const commit of await this.store.read(gameId, game.state.version)) {
      if (commit.seq === game.state.version + 1) game.state = evolveGame(game.state, commit);
    }
    return game;
  }

  private loadCold(gameId: string): Promise<CachedGame> {
    let pending = this.loading.get(gameId);
    if (!pending) {
      pending = this.fold(gameId).finally(() => this.loading.delete(gameId));
      this.loading.set(gameId, pending);
    }
    return pending;
  }

  private async fold(gameId: string): Promise<CachedGame> {
    const secrets = await this.store.readSecrets(gameId);
    if (!secrets) throw notFound();
    const commits = await this.store.read(gameId, 0);
    if (commits.length === 0) throw notFound();
    let state: GameState | undefined;
    for (const commit of commits) state = evolveGame(state, commit);
    const game: CachedGame = { state: state!, secrets };
    this.offer(gameId, game);
    return this.games.get(gameId)!;
  }

  private remember(gameId: string, game: CachedGame): void {
    this.games.delete(gameId);
    this.games.set(gameId, game);
    while (this.games.size > this.size) this.games.delete(this.games.keys().next().value!);
  }
}
