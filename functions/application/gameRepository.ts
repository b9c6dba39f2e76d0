import { rememberCommandId, type GameState } from '../../domain/game/gameFold';
import { evolveGame, loadRuleset, loadRulesetOf } from './rulesetLoader';
import type { CommitLog, GameSecrets, GameSecretsStore, IssuedToken, ViewerRecord } from '../ports/eventStore';
import { notFound } from './errors';
import { commandIdHashes, snapshotDue, snapshotOf, snapshotSpacing, snapshotRulesetId, stateOf, SNAPSHOT_INTERVAL, type CommandIdHashes } from './snapshots';
import type { Snapshot, SnapshotStore } from '../ports/snapshotStore';

/** Snapshots for this process: read on every cold load; written only where the process may write the table. */
export interface SnapshotUse {
  store: SnapshotStore;
  write: boolean;
  /** Commits between two snapshots (SNAPSHOT_INTERVAL). */
  interval?: number;
}

/** A folded game as this process keeps it; only GameRepository changes one. */
export interface CachedGame {
  readonly state: GameState;
  readonly secrets: GameSecrets;
  /** The sealed server seed, once read from its item (only by the functions that roll). */
  readonly sealedSeed?: string;
  /** The game key for a list of entropy contributions (as JSON): derived once, not per die. */
  readonly gameKey?: { entropy: string; key: Uint8Array };
  /** Its spectator links, once read (kept by a sole writer only: viewers.ts). */
  readonly viewers?: ViewerRecord[];
  /** The tokens issued after creation that this process has read (credentials.ts). */
  readonly issuedTokens?: IssuedToken[];
  /**
   * Loaded from a snapshot: the hashes of the commandIds before its recent ones, which the
   * state's own map does not hold (snapshots.ts); a retry whose hash is there is looked up in the store.
   */
  readonly olderCommandIds?: Uint32Array;
  /** The hashes of its commandIds as of its last snapshot here: the next one hashes only those since. */
  readonly commandIdHashes?: CommandIdHashes;
}

type Kept = { -readonly [K in keyof CachedGame]: CachedGame[K] };

/**
 * The one repository of games: the folded games of a warm process, most recently used
 * last, and the only code that changes a cached game. One fold per game at a time:
 * concurrent first requests share one load, so a command and a read sent together to a
 * cold game meet on the same state and a reader never sees less than an acknowledged write.
 */
export class GameRepository {
  private readonly games = new Map<string, CachedGame>();
  private readonly loading = new Map<string, Promise<CachedGame>>();
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly store: CommitLog & GameSecretsStore,
    private readonly size: number,
    /** This process is its store's only writer: a cached game is always current. */
    private readonly soleWriter: boolean,
    private readonly snapshots?: SnapshotUse,
  ) {}

  /**
   * After commits from `previousVersion` on: the game's snapshot when one is due (a cache: a
   * failure costs a longer cold load, nothing else). Taken now, from the state as the group
   * left it; written while the next commands go on (`idle` waits for the write).
   */
  committed(game: CachedGame, previousVersion: number): void {
    if (!this.snapshots?.write) return;
    const interval = this.snapshots.interval ?? SNAPSHOT_INTERVAL;
    if (!snapshotDue(previousVersion, game.state.version, interval)) return;
    const hashes = commandIdHashes(game.state, game.olderCommandIds, game.commandIdHashes);
    (game as Kept).commandIdHashes = hashes;
    const snapshot = snapshotOf(game.state, hashes);
    if (!snapshotDue(previousVersion, game.state.version, snapshotSpacing(snapshot, interval))) return;
    this.write(game.state.gameId, snapshot);
  }

  private write(gameId: string, snapshot: Snapshot): void {
    const writing = this.snapshots!.store.write(gameId, snapshot).catch(() => {});
    this.writing.add(writing);
    void writing.finally(() => this.writing.delete(writing));
  }

  /** Resolves once no snapshot is being written. */
  async idle(): Promise<void> {
    while (this.writing.size > 0) await Promise.all([...this.writing]);
  }

  /**
   * A group of commits stored: the game now stands at `state` (folded from the game's, which it
   * shares nothing mutable with), offered as current, its snapshot taken when due.
   */
  stored(game: CachedGame, state: GameState): void {
    const previousVersion = game.state.version;
    (game as Kept).state = state;
    this.offer(state.gameId, game);
    this.committed(game, previousVersion);
  }

  /** A retry's commandId found in the store, known from now on (a game loaded from a snapshot). */
  knowCommandId(game: CachedGame, commandId: string, seq: number): void {
    if (seq <= game.state.version) (game as Kept).state = rememberCommandId(game.state, commandId, seq);
  }

  keepGameKey(game: CachedGame, gameKey: { entropy: string; key: Uint8Array }): void {
    (game as Kept).gameKey = gameKey;
  }

  keepSealedSeed(game: CachedGame, sealedSeed: string): void {
    (game as Kept).sealedSeed = sealedSeed;
  }

  /** The secrets rewritten without the seed, which now has its own item. */
  seedMoved(game: CachedGame, secrets: GameSecrets, sealedSeed: string): void {
    (game as Kept).secrets = secrets;
    (game as Kept).sealedSeed = sealedSeed;
  }

  keepIssuedTokens(game: CachedGame, tokens: IssuedToken[]): void {
    (game as Kept).issuedTokens = tokens;
  }

  /** A token issued by this process: added to those read, if any were. */
  tokenIssued(game: CachedGame, token: IssuedToken): void {
    if (game.issuedTokens) (game as Kept).issuedTokens = [...game.issuedTokens, token];
  }

  keepViewers(game: CachedGame, viewers: ViewerRecord[]): void {
    (game as Kept).viewers = viewers;
  }

  viewerAdded(game: CachedGame, viewer: ViewerRecord): void {
    if (game.viewers) (game as Kept).viewers = [...game.viewers, viewer];
  }

  viewerRevoked(game: CachedGame, viewerId: string): void {
    if (game.viewers) (game as Kept).viewers = game.viewers.map((v) => (v.viewerId === viewerId ? { ...v, revoked: true } : v));
  }

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
      if (commit.seq === game.state.version + 1) (game as Kept).state = evolveGame(game.state, commit);
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
    const game: CachedGame = { ...((await this.fromSnapshot(gameId)) ?? { state: await this.fromCommitOne(gameId) }), secrets };
    this.offer(gameId, game);
    return this.games.get(gameId)!;
  }

  /** The snapshot's state and the commits after it, when the snapshot can be trusted: it must chain into them. */
  private async fromSnapshot(gameId: string): Promise<{ state: GameState; olderCommandIds: Uint32Array } | undefined> {
    if (!this.snapshots) return undefined;
    const snapshot = await this.snapshots.store.read(gameId).catch(() => undefined);
    if (snapshot) await loadRuleset(snapshotRulesetId(snapshot));
    const held = snapshot && stateOf(gameId, snapshot);
    if (!held) return undefined;
    let { state } = held;
    const after = await this.store.read(gameId, state.version);
    if (after.length === 0) {
      // Nothing after it: the commit it names must be the one stored.
      const [named] = await this.store.read(gameId, state.version - 1, 1);
      return named?.hash === state.lastHash ? held : undefined;
    }
    if (after[0].seq !== state.version + 1 || after[0].prevHash !== state.lastHash) return undefined;
    for (const commit of after) state = evolveGame(state, commit);
    return { state, olderCommandIds: held.olderCommandIds };
  }

  private async fromCommitOne(gameId: string): Promise<GameState> {
    const commits = await this.store.read(gameId, 0);
    if (commits.length === 0) throw notFound();
    await loadRulesetOf(commits[0]);
    let state: GameState | undefined;
    for (const commit of commits) state = evolveGame(state, commit);
    // A game long enough to have one gets its snapshot again (none yet, or one this code could not use).
    const interval = this.snapshots?.interval ?? SNAPSHOT_INTERVAL;
    if (this.snapshots?.write && state!.version >= interval) this.write(gameId, snapshotOf(state!));
    return state!;
  }

  private remember(gameId: string, game: CachedGame): void {
    this.games.delete(gameId);
    this.games.set(gameId, game);
    while (this.games.size > this.size) this.games.delete(this.games.keys().next().value!);
  }
}
