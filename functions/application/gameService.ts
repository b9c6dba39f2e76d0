import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { canonicalJson } from '../../domain/canonicalJson';
import { commitmentOf, gameKeyOf } from '../../domain/fairness/gameKey';
import { GENESIS_PREV_HASH, type Commit } from '../../domain/fairness/hashChain';
import { hashedCommit } from '../../domain/game/buildCommit';
import { checkPayload, commandTypes, decideCreate } from '../../domain/game/decideGame';
import { CreateGameBody, SERVICE_COMMANDS } from '../../domain/game/gameCommands';
import { evolveGame, type GameState } from '../../domain/game/gameState';
import { ORGANIZER, type Ruleset } from '../../domain/ruleset';
import { signGameHead, type GameHead } from '../../domain/trust/gameHead';
import { findRuleset } from '../../domain/rulesets/registry';
import { verifyBundle, type ExportBundle, type VerificationReport } from '../../domain/verify/verifyBundle';
import { IdempotencyKeyTaken, type EventStore, type GameSecrets, type IdempotencyRecord } from '../store/eventStore';
import { CommitWaiters } from './commitWaiters';
import { GameCache, type CachedGame, type SnapshotUse } from './gameCache';
import { GroupCommit, signGroup, type AppendRequest, type CommandOutcome } from './groupCommit';
import { KeyedLock } from './keyedLock';
import type { SeedVault } from './seedVault';
import { ViewerRequest, Viewers } from './viewers';
import { GameSealed } from '../../domain/errors';
import { Credentials, type ReadAccess } from './credentials';
import { TournamentTokens } from './tournamentTokens';
import { Tournaments } from './tournaments';
import { ApplicationError, invalidRequest, notFound } from './errors';
import type { Signer } from './signer';
import { hashToken, newToken, randomId, sha256Hex } from './tokens';
import { derivedToken, noTokenMinter, type TokenMinter } from './tokenMinter';
import { fieldIssues } from './zodIssues';
import { abandonedAt, expires, leaseEnd, type ExpiryPolicy, type GameLeases } from './gameExpiry';
import type { CreationQuota } from './creationQuota';
import { checkIdempotencyKey, idempotencyKeyHash } from './idempotencyKey';

export interface ServiceDeps {
  store: EventStore;
  signer: Signer;
  /** Opens the server seeds the store keeps encrypted; functions that never roll get noSeedVault. */
  seedVault: SeedVault;
  /** Derives the tokens of a creation sent with an Idempotency-Key; functions that never create games get none. */
  tokenMinter?: TokenMinter;
  /** ISO-8601 now; the only clock. */
  now?: () => string;
  /** 32 bytes from a CSPRNG for each new game's seed. */
  randomSeed?: () => Buffer;
  newGameId?: () => string;
  /** Games of no tournament left unsealed expire after this policy's days without a command; none: never. */
  expiry?: ExpiryPolicy;
  /** Where their leases are kept (needed with `expiry`). */
  leases?: GameLeases;
  /** Counts creations by client (POST /games, POST /tournaments; a tournament's games for the client that created it); none: unbounded. */
  creationQuota?: CreationQuota;
  /** Snapshots of long games, so that a cold process reads the last one and the commits after it (snapshots.ts). */
  snapshots?: SnapshotUse;
  /** How many waiting commands of one game one write takes (MAX_GROUP); 1 where the store keeps one commit per item. */
  maxGroup?: number;
  /** The bytes one write of commits may take (ITEM_BUDGET, functions/store/itemSize.ts); smaller in tests. */
  itemBudget?: number;
  /** How many games a warm process keeps folded. */
  cacheSize?: number;
  /**
   * This process is the only writer of its store (the local server: its embedded
   * DynamoDB lives in the process and LevelDB locks the data directory), so a cached
   * game is always current and reads need not ask the store for newer commits.
   */
  soleWriter?: boolean;
}

export const CommandRequest = z.strictObject({
  commandId: z.string().regex(/^[A-Za-z0-9._:-]{1,128}$/, 'a commandId is 1 to 128 letters, digits or . _ : -'),
  type: z.string().min(1).max(64),
  payload: z.unknown().optional(),
  expectedVersion: z.int().min(1).optional(),
  as: z.string().min(1).max(64).optional(),
});
export type CommandRequest = z.infer<typeof CommandRequest>;

export interface CreatedGame {
  gameId: string;
  ruleset: string;
  sides: readonly string[];
  commitment: string;
  version: 1;
  tokens: { organizer: string; players: Record<string, string> };
  /** Present when the game was created with a tournament's token. */
  tournamentId?: string;
}

/** What createGame needs to know of a tournament that takes the game. */
export interface TournamentEntry {
  tournamentId: string;
  /** Lists the game under its tournament; runs once the request is valid, before the game is stored. */
  list: (gameId: string) => Promise<void>;
  /** Counts the game against the creation quota of the client that created the tournament (429 past it). */
  admit: () => Promise<void>;
}


/** How long a creation's Idempotency-Key answers the same game. */
export const IDEMPOTENCY_SECONDS = 24 * 60 * 60;

/**
 * The creation request as commit 1 records it: the ruleset's options for new games (its
 * current rules version) added where the request does not set them. Only here, never in the
 * domain's decideCreate, which also replays commit 1 of games created before those options.
 */
function withNewGameOptions(ruleset: Ruleset, body: CreateGameBody): CreateGameBody {
  const extra = ruleset.newGameOptions;
  const options = body.options ?? {};
  if (!extra || typeof options !== 'object' || options === null || Array.isArray(options)) return body;
  return { ...body, options: { ...extra, ...(options as Record<string, unknown>) } };
}
/** A game stored before seeds had an item of their own (or were encrypted): moved on its next command. */
const hasLegacySeed = (secrets: GameSecrets) => secrets.serverSeed !== undefined || secrets.sealedSeed !== undefined;

/** Random tokens, or with an Idempotency-Key, tokens derived from it and its record's salt. */
function creationTokens(sides: readonly string[], master: Buffer | undefined): { organizer: string; players: Record<string, string> } {
  const token = (role: string) => (master ? derivedToken(master, role) : newToken());
  return { organizer: token(ORGANIZER), players: Object.fromEntries(sides.map((side) => [side, token(side)])) };
}


/** 409 with Retry-After: the first request with the key has not stored its game yet. */
const idempotencyKeyInUse = () =>
  new ApplicationError(
    409,
    'idempotency_key_in_use',
    'Another request with this Idempotency-Key is creating its game right now. Send the same request again in a moment: it answers that game.',
    undefined,
    { 'retry-after': '1' },
  );

/**
 * The application: load the stream, fold, decide, append one commit. No rule
 * lives here; the domain decides, this layer stores and guards.
 */
export class GameService {
  private readonly cache: GameCache;
  private readonly locks = new KeyedLock();
  private readonly groupCommit: GroupCommit;
  private readonly waiters = new CommitWaiters();
  private readonly seedVault: SeedVault;
  private readonly viewers: Viewers;
  private readonly credentials: Credentials;
  private readonly commitListeners = new Set<(commit: Commit) => void>();
  private readonly accessListeners = new Set<(gameId: string) => void>();
  readonly tournaments: Tournaments;
  private readonly now: () => string;
  private readonly randomSeed: () => Buffer;
  private readonly tokenMinter: TokenMinter;
  private readonly newGameId: () => string;

  constructor(private readonly deps: ServiceDeps) {
    this.cache = new GameCache(deps.store, deps.cacheSize ?? 1000, deps.soleWriter === true, deps.snapshots);
    this.seedVault = deps.seedVault;
    this.viewers = new Viewers(deps.store, deps.soleWriter === true);
    const tournamentTokens = new TournamentTokens(deps.store);
    this.credentials = new Credentials(deps.store, this.viewers, tournamentTokens);
    this.now = deps.now ?? (() => new Date().toISOString());
    this.randomSeed = deps.randomSeed ?? (() => randomBytes(32));
    this.tokenMinter = deps.tokenMinter ?? noTokenMinter;
    this.newGameId = deps.newGameId ?? (() => `g-${randomBytes(12).toString('base64url')}`);
    if (deps.expiry && !deps.leases) throw new Error('an expiry policy needs a lease store');
    this.tournaments = new Tournaments(deps.store, this, tournamentTokens, this.now, deps.creationQuota);
    this.groupCommit = new GroupCommit({
      store: deps.store,
      cache: this.cache,
      credentials: this.credentials,
      signer: deps.signer,
      now: this.now,
      soleWriter: deps.soleWriter === true,
      maxGroup: deps.maxGroup ?? 1,
      itemBudget: deps.itemBudget,
      expiry: deps.expiry,
      leases: deps.leases,
      gameKey: (game, state) => this.gameKey(game, state),
      serverSeed: (game) => this.serverSeed(game),
      stored: (gameId, commits) => {
        this.waiters.notify(gameId);
        for (const commit of commits) this.announce(commit);
      },
    });
  }

  /**
   * Calls `listener` with each commit this process stores, after it is stored (a push
   * channel's source on a sole writer). Returns the function that stops it.
   */
  onCommit(listener: (commit: Commit) => void): () => void {
    this.commitListeners.add(listener);
    return () => void this.commitListeners.delete(listener);
  }

  /**
   * Calls `listener` with a game's id when who may read it changed other than by a commit (a
   * spectator link revoked): a push channel re-checks its subscriptions with readAccess.
   */
  onAccessChange(listener: (gameId: string) => void): () => void {
    this.accessListeners.add(listener);
    return () => void this.accessListeners.delete(listener);
  }

  /** Resolves once every command this process took is written and its work after the answer (a snapshot) done: before its store closes. */
  async idle(): Promise<void> {
    await this.groupCommit.idle();
    await this.cache.idle();
  }

  /** A game deleted from the store (an abandoned game swept) leaves the cache. */
  forgetGame(gameId: string): void {
    this.cache.forget(gameId);
  }

  private announce(commit: Commit): void {
    for (const listener of this.commitListeners) {
      try {
        listener(commit);
      } catch {
        // A listener's failure is its own: the commit is stored and acknowledged regardless.
      }
    }
  }

  get signer(): Signer {
    return this.deps.signer;
  }

  /**
   * POST /games. With an Idempotency-Key, the same key (in the same scope: the tournament, or
   * none) and request answer the same game and the same tokens again for a day; the tokens
   * are derived from the key and a salt drawn for the creation (tokenMinter.ts), so a game
   * created with the key after its day shares none of them.
   */
  async createGame(body: unknown, tournament?: TournamentEntry, idempotencyKey?: string, client?: string): Promise<CreatedGame> {
    if (idempotencyKey !== undefined) checkIdempotencyKey(idempotencyKey);
    const parsed = CreateGameBody.safeParse(body);
    if (!parsed.success) throw invalidRequest(fieldIssues(parsed.error));
    const ruleset = findRuleset(parsed.data.ruleset);
    if (!ruleset) throw invalidRequest([{ field: 'ruleset', message: `unknown ruleset "${parsed.data.ruleset}"` }]);
    const admit = async () => {
      if (tournament) await tournament.admit();
      else await this.deps.creationQuota?.admit(client);
    };
    if (idempotencyKey === undefined) return this.create(parsed.data, admit, tournament);
    const keyHash = idempotencyKeyHash(idempotencyKey, tournament?.tournamentId);
    const requestHash = sha256Hex(canonicalJson({ body: parsed.data, tournamentId: tournament?.tournamentId ?? null }));
    return this.locks.run(`idempotency:${keyHash}`, async () => {
      const now = Math.floor(Date.parse(this.now()) / 1000);
      const earlier = await this.deps.store.readIdempotency(keyHash, now);
      if (earlier) return this.replayCreation(earlier, requestHash);
      const record: IdempotencyRecord = { keyHash, requestHash, gameId: this.newGameId(), expiresAt: now + IDEMPOTENCY_SECONDS, createdAt: now, salt: randomBytes(16).toString('base64url') };
      try {
        return await this.create(parsed.data, admit, tournament, record);
      } catch (error) {
        if (!(error instanceof IdempotencyKeyTaken)) throw error;
        // Another process created with this key meanwhile: answer with its game.
        const winner = await this.deps.store.readIdempotency(keyHash, now);
        if (!winner) throw idempotencyKeyInUse();
        return this.replayCreation(winner, requestHash);
      }
    });
  }

  /** The tokens' master bytes of a creation with an Idempotency-Key (records stored before salts: the key's alone). */
  private tokenMaster(record: IdempotencyRecord): Promise<Buffer> {
    return this.tokenMinter.master(record.salt === undefined ? record.keyHash : `${record.keyHash}|${record.salt}`);
  }

  /** Decides the creation, then counts it (`admit`), then stores it: a refused creation is not counted, a creation past the quota stores nothing. */
  private async create(request: CreateGameBody, admit: () => Promise<void>, tournament?: TournamentEntry, idempotency?: IdempotencyRecord): Promise<CreatedGame> {
    const ruleset = findRuleset(request.ruleset)!;
    const body = withNewGameOptions(ruleset, request);
    const seed = this.randomSeed();
    const commitment = commitmentOf(seed);
    let created;
    try {
      created = decideCreate(ruleset, body, commitment, tournament?.tournamentId);
    } catch (error) {
      if (error instanceof z.ZodError) throw invalidRequest(fieldIssues(error, 'options'));
      throw error;
    }
    await admit();
    const sides = created.data.sides as string[];
    const tokens = creationTokens(sides, idempotency && (await this.tokenMaster(idempotency)));
    const gameId = idempotency?.gameId ?? this.newGameId();
    const [{ commit: first, head }] = await signGroup(
      this.deps.signer,
      [
        hashedCommit({
          gameId,
          seq: 1,
          prevHash: GENESIS_PREV_HASH,
          commandId: 'create',
          actor: ORGANIZER,
          viaOrganizer: false,
          command: { type: 'CreateGame', payload: body },
          events: [created],
          dice: [],
          recordedAt: this.now(),
          kid: this.deps.signer.kid,
        }),
      ],
      false,
    );
    const sealedSeed = await this.seedVault.seal(gameId, seed);
    const secrets: GameSecrets = {
      tokenHashes: {
        organizer: hashToken(tokens.organizer),
        players: Object.fromEntries(Object.entries(tokens.players).map(([s, t]) => [s, hashToken(t)])),
      },
      ...(tournament ? { tournamentId: tournament.tournamentId } : {}),
    };
    // Listed first: a listing whose game was never stored shows nothing, a stored game is never left unlisted.
    await tournament?.list(gameId);
    // Armed first too: a lease whose game was never stored is swept as nothing.
    if (this.deps.expiry && !tournament) await this.deps.leases!.arm(gameId, leaseEnd(this.deps.expiry, first.recordedAt));
    await this.deps.store.createGame(first, secrets, head, sealedSeed, idempotency);
    // The only writer knows the new game whole: its first command folds nothing from the store.
    if (this.deps.soleWriter) this.cache.offer(gameId, { state: evolveGame(undefined, first), secrets, sealedSeed });
    this.announce(first);
    return { gameId, ruleset: ruleset.id, sides, commitment, version: 1, tokens, ...(tournament ? { tournamentId: tournament.tournamentId } : {}) };
  }

  /** The answer to a creation's Idempotency-Key used again: the same game, the same tokens. */
  private async replayCreation(record: IdempotencyRecord, requestHash: string): Promise<CreatedGame> {
    if (record.requestHash !== requestHash) {
      throw new ApplicationError(422, 'idempotency_key_reused', 'This Idempotency-Key created a game from a different request. Use a new key for a new game.', { gameId: record.gameId });
    }
    let game: CachedGame;
    try {
      game = await this.cache.load(record.gameId);
    } catch (error) {
      if (error instanceof ApplicationError && error.status === 404) throw idempotencyKeyInUse();
      throw error;
    }
    const { state, secrets } = game;
    const tokens = creationTokens(state.sides, await this.tokenMaster(record));
    const stored = secrets.tokenHashes;
    if (hashToken(tokens.organizer) !== stored.organizer || state.sides.some((side) => hashToken(tokens.players[side]) !== stored.players[side])) {
      throw new Error('the tokens derived for an Idempotency-Key do not match the stored ones');
    }
    const created = state.ruleset.id;
    return { gameId: state.gameId, ruleset: created, sides: [...state.sides], commitment: state.commitment, version: 1, tokens, ...(secrets.tournamentId ? { tournamentId: secrets.tournamentId } : {}) };
  }

  /** POST /games/{id}/commands. */
  async submit(gameId: string, token: string | undefined, body: unknown): Promise<CommandOutcome> {
    // Optimistic: a warm process decides on its cached state; if another process has
    // appended since, the conditional write loses and the group is decided again.
    let game = this.cache.peek(gameId) ?? (await this.cache.load(gameId));
    let role;
    try {
      role = await this.credentials.actingRole(game, token);
    } catch (error) {
      // A token reissued through another process is unknown to a cache that has not read that commit yet.
      if (this.deps.soleWriter) throw error;
      game = await this.cache.load(gameId, true);
      role = await this.credentials.actingRole(game, token);
    }
    const cached = game;
    if (hasLegacySeed(cached.secrets)) await this.locks.run(gameId, () => this.moveLegacySeed(cached));
    const request = CommandRequest.safeParse(body);
    if (!request.success) throw invalidRequest(fieldIssues(request.error));
    const { commandId, type, expectedVersion, as } = request.data;
    if (as !== undefined && role !== ORGANIZER) {
      throw new ApplicationError(403, 'forbidden', 'Only the organizer token may act for a side with "as".');
    }
    if (SERVICE_COMMANDS.has(type)) {
      throw invalidRequest([{ field: 'type', message: `${type} is not sent as a command: use ${type === 'ReissueToken' ? 'POST' : 'DELETE'} /games/{id}/tokens/{role}` }]);
    }
    const check = checkPayload(game.state.ruleset, type, request.data.payload);
    if (!check.ok) {
      if ('unknownType' in check) {
        const known = commandTypes(game.state.ruleset).join(', ');
        throw invalidRequest([{ field: 'type', message: `"${type}" is not a command of the ${game.state.ruleset.id} ruleset; its commands are ${known}` }]);
      }
      throw invalidRequest(fieldIssues(check.error, 'payload'));
    }
    return this.decideAndAppend(game, token, { commandId, command: { type, payload: check.payload }, as, expectedVersion });
  }

  /** Decides a command on the folded game and appends its commit, in a group with the commands of the game that wait with it. */
  private decideAndAppend(game: CachedGame, token: string | undefined, request: AppendRequest): Promise<CommandOutcome> {
    return this.groupCommit.submit(game.state.gameId, token, request);
  }

  // ---- tokens ----

  /** POST /games/{id}/tokens/{role}: a new token for the role, shown once; the old one stops working with the commit. */
  async reissueToken(gameId: string, token: string | undefined, role: string) {
    return this.locks.run(gameId, async () => {
      const game = await this.tokenCommandGame(gameId, token, role, 'reissue tokens');
      const issued = await this.credentials.issue(game, role, this.now());
      const command = { type: 'ReissueToken', payload: { role, tokenId: issued.tokenId } };
      const outcome = await this.decideAndAppend(game, token, { commandId: `token-${issued.tokenId}`, command });
      return { gameId, role, token: issued.token, version: outcome.version, commit: outcome.commit };
    });
  }

  /** DELETE /games/{id}/tokens/{role}: the role's token stops working with the commit. */
  async revokeToken(gameId: string, token: string | undefined, role: string) {
    return this.locks.run(gameId, async () => {
      const game = await this.tokenCommandGame(gameId, token, role, 'revoke tokens');
      const outcome = await this.decideAndAppend(game, token, { commandId: randomId('revoke'), command: { type: 'RevokeToken', payload: { role } } });
      return { gameId, role, version: outcome.version, commit: outcome.commit };
    });
  }

  private async tokenCommandGame(gameId: string, token: string | undefined, role: string, action: string): Promise<CachedGame> {
    const game = await this.cache.load(gameId);
    await this.credentials.organizerOnly(game, token, action);
    if (role !== ORGANIZER && !game.state.sides.includes(role)) {
      throw notFound(`This game has no role ${JSON.stringify(role)}: its roles are organizer, ${game.state.sides.join(', ')}.`);
    }
    if (game.state.sealed) throw new GameSealed();
    return game;
  }

  /** GET /games/{id}. */
  async view(gameId: string, token: string | undefined) {
    const game = await this.cache.load(gameId);
    const s = game.state;
    // Who the token is, so a page knows whether to offer a command box; null: a public game read without a token of its own.
    const access = await this.credentials.readAccess(game, token);
    return {
      gameId,
      ruleset: s.ruleset.id,
      title: s.title,
      sides: s.sides,
      version: s.version,
      sealed: s.sealed,
      commitment: s.commitment,
      public: s.public,
      entropy: { contributions: s.entropy.length, locked: s.diceRolled },
      state: s.ruleset.present(s.rules),
      role: 'role' in access ? access.role : 'viewerId' in access ? 'spectator' : null,
      abandonedAt: expires(this.deps.expiry, s, game.secrets.tournamentId) ? new Date(abandonedAt(this.deps.expiry, s.lastRecordedAt)).toISOString() : null,
    };
  }

  /** GET /games/{id}/events. */
  async events(gameId: string, token: string | undefined, after: number, limit: number, waitSeconds = 0) {
    let game = await this.loadForRead(gameId, token);
    if (waitSeconds > 0 && game.state.version <= after) {
      const newerExists = this.deps.soleWriter
        ? async () => (this.cache.peek(gameId)?.state.version ?? 0) > after
        : async () => (await this.deps.store.read(gameId, after, 1)).length > 0;
      const revoked = () => this.readAccess(gameId, token).then(() => false, () => true);
      // A revocation while it waits ends the wait at once; the check below then answers it.
      await this.waiters.wait(gameId, waitSeconds * 1000, async () => (await newerExists()) || (await revoked()));
      game = await this.loadForRead(gameId, token);
    }
    // Only commits stored before the token was last checked: none from after a revocation.
    const { state } = game;
    const { version } = state;
    const commits = after >= version ? [] : (await this.deps.store.read(gameId, after, limit)).filter((c) => c.seq <= version);
    return { gameId, version, commits, state };
  }

  /** GET /games/{id}/export: fairness-v1 §7. */
  async exportBundle(gameId: string, token: string | undefined): Promise<ExportBundle> {
    return this.bundleOf(await this.loadForRead(gameId, token));
  }

  private async bundleOf(game: CachedGame): Promise<ExportBundle> {
    const { gameId } = game.state;
    const commits = await this.deps.store.read(gameId, 0);
    const sealed = commits.find((c) => c.events.some((e) => e.type === 'GameSealed'));
    const last = commits.at(-1)!;
    const { keys, log } = this.deps.signer.keysDocument();
    return {
      gameId,
      ruleset: game.state.ruleset.id,
      commitment: game.state.commitment,
      commits,
      keys: { keys },
      keyLog: log,
      // The head names the file's own last commit: a shortened copy no longer matches it.
      head: await this.headOf(gameId, last.seq, last.hash, sealed !== undefined),
      ...(sealed ? { serverSeed: String(sealed.events.find((e) => e.type === 'GameSealed')!.data.serverSeed) } : {}),
    };
  }

  /**
   * A game of a tournament, for the listing and export its organizer reads: undefined
   * when no such game was stored (a listing whose creation failed) or it is not this
   * tournament's.
   */
  async tournamentGame(tournamentId: string, gameId: string): Promise<{ game: CachedGame; head: GameHead } | undefined> {
    let game: CachedGame;
    try {
      game = await this.cache.load(gameId);
    } catch (error) {
      if (error instanceof ApplicationError && error.status === 404) return undefined;
      throw error;
    }
    if (game.secrets.tournamentId !== tournamentId) return undefined;
    const { state } = game;
    return { game, head: await this.headOf(gameId, state.version, state.lastHash, state.sealed) };
  }

  /**
   * The signed head of a tournament's game where it ends now, as stored with its last
   * commit: a tournament head lists every game's without folding them. A game whose last
   * commit was stored without a head is folded; undefined as tournamentGame.
   */
  async tournamentGameHead(tournamentId: string, gameId: string): Promise<GameHead | undefined> {
    const stored = await this.deps.store.readLastHead?.(gameId);
    if (stored) return stored;
    return (await this.tournamentGame(tournamentId, gameId))?.head;
  }

  /**
   * A tournament's game exported as it stood at `head` (the tournament head lists it there),
   * read from the store without entering the cache: commands stored since are left for the
   * next export.
   */
  async tournamentExportAt(tournamentId: string, head: GameHead): Promise<ExportBundle> {
    const commits = await this.deps.store.read(head.gameId, 0, head.seq);
    const last = commits.at(-1);
    if (last?.seq !== head.seq || last.hash !== head.lastHash) throw new Error(`game ${head.gameId} has no commit ${head.seq} under its head`);
    const created = commits[0].events[0].data as { ruleset: string; commitment: string; tournamentId?: string };
    const namedIn = created.tournamentId ?? (await this.deps.store.readSecrets(head.gameId))?.tournamentId;
    if (namedIn !== tournamentId) throw new Error(`game ${head.gameId} is listed in a tournament it does not belong to`);
    const sealing = commits.find((c) => c.events.some((e) => e.type === 'GameSealed'))?.events.find((e) => e.type === 'GameSealed');
    const { keys, log } = this.deps.signer.keysDocument();
    return {
      gameId: head.gameId,
      ruleset: findRuleset(created.ruleset)?.id ?? created.ruleset,
      commitment: created.commitment,
      commits,
      keys: { keys },
      keyLog: log,
      head,
      ...(sealing ? { serverSeed: String(sealing.data.serverSeed) } : {}),
    };
  }

  /** GET /games/{id}/head: the server's signed word on where the game ends now (trust.md §4). */
  async head(gameId: string, token: string | undefined): Promise<GameHead> {
    const { state } = await this.loadForRead(gameId, token);
    return this.headOf(gameId, state.version, state.lastHash, state.sealed);
  }

  /**
   * The signed head of the game's last commit, as stored with it. A commit stored before
   * heads were stored with commits gets one signed now, where this function may sign.
   */
  private async headOf(gameId: string, seq: number, lastHash: string, sealed: boolean): Promise<GameHead> {
    const stored = await this.deps.store.readHead(gameId, seq);
    if (stored) return stored;
    const signer = this.deps.signer;
    if (!signer.canSign) throw new ApplicationError(503, 'unavailable', 'This game has no signed head yet; it gets one with its next command.');
    return signGameHead({ gameId, seq, lastHash, sealed, at: this.now(), kid: signer.kid }, signer.sign);
  }

  async verify(gameId: string, token: string | undefined): Promise<VerificationReport> {
    return verifyBundle(await this.exportBundle(gameId, token));
  }

  // ---- spectator links ----

  /** POST /games/{id}/viewers: a read-only link, its token shown once. */
  async addViewer(gameId: string, token: string | undefined, body: unknown): Promise<{ viewerId: string; token: string; label?: string }> {
    const game = await this.cache.load(gameId);
    await this.credentials.organizerOnly(game, token, 'create spectator links');
    const request = ViewerRequest.safeParse(body ?? {});
    if (!request.success) throw invalidRequest(fieldIssues(request.error));
    const viewerToken = newToken();
    const viewerId = randomId('v');
    const { label } = request.data;
    await this.viewers.add(game, { viewerId, tokenHash: hashToken(viewerToken), ...(label ? { label } : {}), createdAt: this.now(), revoked: false });
    return { viewerId, token: viewerToken, ...(label ? { label } : {}) };
  }

  /** DELETE /games/{id}/viewers/{viewerId}: the link stops working at once. */
  async revokeViewer(gameId: string, token: string | undefined, viewerId: string): Promise<void> {
    const game = await this.cache.load(gameId);
    await this.credentials.organizerOnly(game, token, 'revoke spectator links');
    if (!(await this.viewers.revoke(game, viewerId))) throw notFound(`This game has no spectator link ${JSON.stringify(viewerId)}.`);
    this.waiters.notify(gameId);
    for (const listener of this.accessListeners) {
      try {
        listener(gameId);
      } catch {
        // The revocation is stored; a listener's failure is its own.
      }
    }
  }

  // ---- loading and secrets ----

  /** Whether this token may read the game now (Credentials.readAccess): 404 for no such game, 401 for a token that does not read it. */
  async readAccess(gameId: string, token: string | undefined): Promise<ReadAccess> {
    return this.credentials.readAccess(await this.cache.load(gameId), token);
  }

  private async loadForRead(gameId: string, token: string | undefined): Promise<CachedGame> {
    const game = await this.cache.load(gameId);
    await this.credentials.readAccess(game, token);
    return game;
  }

  /** The server seed, opened only here: the code that rolls and seals. */
  private async serverSeed(game: CachedGame): Promise<Buffer> {
    const { secrets } = game;
    if (secrets.serverSeed !== undefined) return Buffer.from(secrets.serverSeed, 'hex');
    game.sealedSeed ??= (await this.deps.store.readSeed(game.state.gameId)) ?? secrets.sealedSeed;
    if (game.sealedSeed === undefined) throw new Error(`game ${game.state.gameId} has no seed`);
    return this.seedVault.open(game.state.gameId, game.sealedSeed);
  }

  /**
   * A game stored before seeds were encrypted, or before they had an item of their own, has
   * its seed encrypted and moved there the first time a command reaches it.
   */
  private async moveLegacySeed(game: CachedGame): Promise<void> {
    const { serverSeed, sealedSeed, ...rest } = game.secrets;
    if (!hasLegacySeed(game.secrets)) return;
    const { gameId } = game.state;
    const sealed = serverSeed !== undefined ? await this.seedVault.seal(gameId, Buffer.from(serverSeed, 'hex')) : sealedSeed!;
    await this.deps.store.writeSeed(gameId, sealed);
    await this.deps.store.replaceSecrets(gameId, rest);
    game.secrets = rest;
    game.sealedSeed = sealed;
  }

  /** The game key for a state's entropy (fairness-v1 §3): derived once for each list of contributions, not per die. */
  private async gameKey(game: CachedGame, state: GameState): Promise<Uint8Array> {
    const entropy = JSON.stringify(state.entropy);
    if (game.gameKey?.entropy !== entropy) {
      game.gameKey = { entropy, key: gameKeyOf(await this.serverSeed(game), state.gameId, state.entropy) };
    }
    return game.gameKey.key;
  }
}
