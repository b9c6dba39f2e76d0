import type { TimeControl } from '../../domain/game/clock';
import type { Commit } from '../../domain/fairness/hashChain';
import type { GameHead } from '../../domain/trust/gameHead';

/**
 * What no read path ever returns: the token hashes. The server seed has an item of its
 * own (readSeed), which the functions that only read may not reach at all.
 */
export interface GameSecrets {
  /** Games stored before seeds had their own item: the encrypted seed kept here (moved on the next command). */
  sealedSeed?: string;
  /** Games stored before seeds were encrypted: the plain seed (encrypted and moved on the next command). */
  serverSeed?: string;
  tokenHashes: { organizer: string; players: Record<string, string> };
  /** The tournament the game belongs to: that tournament's token acts as the game's organizer. */
  tournamentId?: string;
}

/**
 * A token issued after creation (POST /games/{id}/tokens/{role}), stored hashed. It works
 * only while the game's state names its tokenId for its role (a TokenReissued commit), so a
 * record whose commit never landed is inert.
 */
export interface IssuedToken {
  tokenId: string;
  role: string;
  tokenHash: string;
  createdAt: string;
}

/**
 * A game creation's Idempotency-Key, stored hashed with the game it created and the hash of
 * the request, for a day: the same key again answers the same game. Once expired it counts
 * as gone, and a new creation with the key takes its place.
 */
export interface IdempotencyRecord {
  keyHash: string;
  requestHash: string;
  gameId: string;
  /** Unix seconds after which the record counts as gone (and the table's TTL deletes it). */
  expiresAt: number;
  /** Unix seconds when it was made: it replaces a record of the key that expired by then. Absent in records stored before. */
  createdAt?: number;
  /** Random, drawn for this creation: the game's tokens derive from the key and it, so a later game of the key shares none. Absent in records stored before. */
  salt?: string;
}

/** A tournament: its organizer's token, stored hashed. */
export interface TournamentRecord {
  tournamentId: string;
  name: string;
  createdAt: string;
  tokenHash: string;
  /** The creation quota's keyed hash of the client that created it: its games count there. Absent in tournaments created before, or without a quota. */
  creatorClient?: string;
  /** A beacon tournament: every game created in it is a beacon game of this chain. */
  randomness?: { beacon: string };
  /** Every game created in it has this time control unless it sets its own (docs/clocks.md). */
  timeControl?: TimeControl;
}

/** A read-only spectator link of a game (its token stored hashed, like the others). */
export interface ViewerRecord {
  viewerId: string;
  tokenHash: string;
  label?: string;
  createdAt: string;
  revoked: boolean;
}

export type AppendResult = { ok: true } | { ok: false; existing: Commit };

/** Commits, the game's log: appended with a conditional put at seq = version + 1 (architecture.md). */
export interface CommitLog {
  /**
   * Appends at commit.seq, with the signed head naming it (written in the same item: the
   * functions that read may publish heads but not sign them); when that seq is taken,
   * answers with the commit that took it.
   */
  append(commit: Commit, head?: GameHead): Promise<AppendResult>;
  /**
   * Appends consecutive commits (seqs first.seq … last.seq) with one conditional write, keyed
   * by the first seq, and the signed head of the last; all or none are stored. When that seq
   * is taken, answers with the commit that took it.
   */
  appendGroup(commits: readonly Commit[], head?: GameHead): Promise<AppendResult>;
  /** Commits with seq > after, ascending, at most `limit` (all when no limit). */
  read(gameId: string, after: number, limit?: number): Promise<Commit[]>;
  /** The seq of the commit stored for this commandId, looking through the whole game (a retry older than a snapshot's recent commandIds). */
  findCommandId(gameId: string, commandId: string): Promise<number | undefined>;
}

/** The signed heads stored with commits. */
export interface HeadStore {
  /** The signed head stored with commit `seq`; undefined for a commit stored without one. */
  readHead(gameId: string, seq: number): Promise<GameHead | undefined>;
  /**
   * The signed head stored with the game's last commit, read without its commits (a
   * tournament's head lists every game's); undefined for an unknown game or a last commit
   * stored without one. Optional: without it the game is folded.
   */
  readLastHead?(gameId: string): Promise<GameHead | undefined>;
}

/** A new game stored whole, and the Idempotency-Key records of creations. */
export interface GameCreationStore {
  /**
   * Stores the seed (sealed by the SeedVault), the secrets, then commit 1 (with its signed
   * head), and the creation's idempotency record: at once where the store has transactions,
   * the record first where it has not. An expired record of the key is replaced. Fails with
   * GameIdTaken if the game id is taken, with IdempotencyKeyTaken if the key is (or another
   * creation is taking it at this moment).
   */
  createGame(first: Commit, secrets: GameSecrets, head?: GameHead, sealedSeed?: string, idempotency?: IdempotencyRecord): Promise<void>;
  /** The key's record unless it expired by `nowSeconds` (unix seconds; default the store's clock). */
  readIdempotency(keyHash: string, nowSeconds?: number): Promise<IdempotencyRecord | undefined>;
}

/** A game's secrets item (its token hashes, its tournament). */
export interface GameSecretsStore {
  readSecrets(gameId: string): Promise<GameSecrets | undefined>;
  /** Rewrites a game's secrets item (to encrypt a seed stored in plain text before seeds were encrypted). */
  replaceSecrets(gameId: string, secrets: GameSecrets): Promise<void>;
}

/** The sealed server seed, in an item of its own: only the functions that roll read it. */
export interface SeedStore {
  /** The game's sealed seed, from its own item. */
  readSeed(gameId: string): Promise<string | undefined>;
  /** Writes the seed's item (a game stored before seeds had one). */
  writeSeed(gameId: string, sealedSeed: string): Promise<void>;
}

/** Tokens issued after creation, stored hashed. */
export interface IssuedTokenStore {
  addIssuedToken(gameId: string, token: IssuedToken): Promise<void>;
  readIssuedTokens(gameId: string): Promise<IssuedToken[]>;
}

/** A game's spectator links. */
export interface ViewerStore {
  addViewer(gameId: string, viewer: ViewerRecord): Promise<void>;
  /** Marks a viewer revoked; false when the game has no such viewer. */
  revokeViewer(gameId: string, viewerId: string): Promise<boolean>;
  readViewers(gameId: string): Promise<ViewerRecord[]>;
}

/** Tournaments and the games listed under them. */
export interface TournamentStore {
  /** Stores the tournament, then an index from its token's hash to its id. Fails with TournamentIdTaken if the id is taken. */
  createTournament(tournament: TournamentRecord): Promise<void>;
  readTournament(tournamentId: string): Promise<TournamentRecord | undefined>;
  /** The tournament whose token has this hash (POST /games names no tournament, only its token). */
  findTournamentByTokenHash(tokenHash: string): Promise<string | undefined>;
  /** Lists a game under its tournament, after the games listed before it. */
  addTournamentGame(tournamentId: string, gameId: string): Promise<void>;
  /** The game ids of a tournament in the order they were added: one query, never a scan. */
  listTournamentGames(tournamentId: string): Promise<string[]>;
}

/**
 * The whole event store, as its adapters (memoryStore.ts, dynamoStore.ts) implement it and
 * the composition roots wire it; each use case takes only the ports above that it needs.
 */
export interface EventStore
  extends CommitLog,
    HeadStore,
    GameCreationStore,
    GameSecretsStore,
    SeedStore,
    IssuedTokenStore,
    ViewerStore,
    TournamentStore {}

/** The store (or the key store) throttled, timed out or could not be reached: 503 with Retry-After. */
export class StoreUnavailable extends Error {
  constructor(cause?: unknown) {
    super('The service is briefly unavailable. Try again shortly with the same commandId: if the command was stored, you get it back; it is never applied twice.', { cause });
    this.name = 'StoreUnavailable';
  }
}

export class IdempotencyKeyTaken extends Error {
  constructor() {
    super('this Idempotency-Key was used by another creation');
    this.name = 'IdempotencyKeyTaken';
  }
}

export class TournamentIdTaken extends Error {
  constructor(tournamentId: string) {
    super(`tournament id ${tournamentId} is taken`);
    this.name = 'TournamentIdTaken';
  }
}

export class GameIdTaken extends Error {
  constructor(gameId: string) {
    super(`game id ${gameId} is taken`);
    this.name = 'GameIdTaken';
  }
}
