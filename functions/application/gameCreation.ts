import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { canonicalJson } from '../../domain/canonicalJson';
import { commitmentOf } from '../../domain/fairness/gameKey';
import { GENESIS_PREV_HASH } from '../../domain/fairness/hashChain';
import { hashedCommit } from '../../domain/game/buildCommit';
import { decideCreate } from '../../domain/game/decideGame';
import type { TimeControl } from '../../domain/game/clock';
import { CreateGameBody } from '../../domain/game/gameCommands';
import { evolveGame, loadRuleset, RULESET_IDS } from './rulesetLoader';
import { ORGANIZER, type Ruleset } from '../../domain/ruleset';
import { IdempotencyKeyTaken, type GameCreationStore, type GameSecrets, type IdempotencyRecord } from '../ports/eventStore';
import type { GameLeases } from '../ports/gameLeases';
import type { SeedVault } from '../ports/seedVault';
import type { Signer } from '../ports/signer';
import type { TokenMinter } from '../ports/tokenMinter';
import { offeredChain, type BeaconOffer } from './beaconOffer';
import { winnerOf } from './creationRace';
import type { CommitFeed } from './commitFeed';
import type { CreationQuota } from './creationQuota';
import { ApplicationError, invalidRequest } from './errors';
import { leaseEnd, type ExpiryPolicy } from './gameExpiry';
import type { CachedGame, GameRepository } from './gameRepository';
import { signGroup } from './groupCommit';
import { checkIdempotencyKey, idempotencyKeyHash } from './idempotencyKey';
import { KeyedLock } from './keyedLock';
import { derivedToken } from './tokenMinter';
import { hashToken, newToken, sha256Hex } from './tokens';
import { fieldIssues, IN_WORDS, shown } from './zodIssues';

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
  /** The tournament's randomness: every game of it is a beacon game of this chain. */
  randomness?: { beacon: string };
  /** The tournament's time control: a game that sets none has it. */
  timeControl?: TimeControl;
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

/**
 * A beacon tournament's games are beacon games of its chain (design: the game's own
 * `randomness` may repeat it, not name another): recorded in the game's CreateGame payload.
 */
function withTournamentRandomness(body: CreateGameBody, tournament: TournamentEntry | undefined): CreateGameBody {
  const randomness = tournament?.randomness;
  if (!randomness) return body;
  if (body.randomness && body.randomness.beacon !== randomness.beacon) {
    throw invalidRequest([{ field: 'randomness.beacon', message: `must be ${shown(randomness.beacon)} or absent: every game of this tournament is a beacon game of that chain`, valid: [randomness.beacon] }]);
  }
  return { ...body, randomness: { beacon: randomness.beacon } };
}

/** A tournament's game that sets no time control has the tournament's, recorded in its CreateGame payload. */
function withTournamentTimeControl(body: CreateGameBody, tournament: TournamentEntry | undefined): CreateGameBody {
  const inherited = tournament?.timeControl;
  return inherited && body.timeControl === undefined ? { ...body, timeControl: inherited } : body;
}

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

export interface GameCreationDeps {
  store: GameCreationStore;
  games: GameRepository;
  feed: CommitFeed;
  signer: Signer;
  seedVault: SeedVault;
  tokenMinter: TokenMinter;
  now: () => string;
  randomSeed: () => Buffer;
  newGameId: () => string;
  expiry?: ExpiryPolicy;
  leases?: GameLeases;
  creationQuota?: CreationQuota;
  soleWriter: boolean;
  beacons: BeaconOffer;
}

/** POST /games: a new game's commit 1, its sealed seed, its secrets and its tokens. */
export class GameCreation {
  private readonly locks = new KeyedLock();

  constructor(private readonly deps: GameCreationDeps) {}

  /**
   * POST /games. With an Idempotency-Key, the same key (in the same scope: the tournament, or
   * none) and request answer the same game and the same tokens again for a day; the tokens
   * are derived from the key and a salt drawn for the creation (tokenMinter.ts), so a game
   * created with the key after its day shares none of them.
   */
  async createGame(body: unknown, tournament?: TournamentEntry, idempotencyKey?: string, client?: string): Promise<CreatedGame> {
    if (idempotencyKey !== undefined) checkIdempotencyKey(idempotencyKey);
    const parsed = CreateGameBody.safeParse(body, IN_WORDS);
    if (!parsed.success) throw invalidRequest(fieldIssues(parsed.error));
    const request = withTournamentTimeControl(withTournamentRandomness(parsed.data, tournament), tournament);
    const ruleset = await loadRuleset(parsed.data.ruleset);
    if (!ruleset) {
      const ids = [...RULESET_IDS];
      throw invalidRequest([{ field: 'ruleset', message: `must be a ruleset of this service, not ${shown(parsed.data.ruleset)}: the rulesets are ${ids.join(', ')}`, valid: ids }]);
    }
    const admit = async () => {
      if (tournament) await tournament.admit();
      else await this.deps.creationQuota?.admit(client);
    };
    if (idempotencyKey === undefined) return this.create(ruleset, request, admit, tournament);
    const keyHash = idempotencyKeyHash(idempotencyKey, tournament?.tournamentId);
    const requestHash = sha256Hex(canonicalJson({ body: parsed.data, tournamentId: tournament?.tournamentId ?? null }));
    return this.locks.run(`idempotency:${keyHash}`, async () => {
      const now = Math.floor(Date.parse(this.deps.now()) / 1000);
      const earlier = await this.deps.store.readIdempotency(keyHash, now);
      if (earlier) return this.replayCreation(earlier, requestHash);
      const record: IdempotencyRecord = { keyHash, requestHash, gameId: this.deps.newGameId(), expiresAt: now + IDEMPOTENCY_SECONDS, createdAt: now, salt: randomBytes(16).toString('base64url') };
      try {
        return await this.create(ruleset, request, admit, tournament, record);
      } catch (error) {
        if (!(error instanceof IdempotencyKeyTaken)) throw error;
        // Another process created with this key meanwhile (or is creating it now): answer with its game once it has landed.
        const winner = await winnerOf(() => this.deps.store.readIdempotency(keyHash, now));
        if (!winner) throw idempotencyKeyInUse();
        return this.replayCreation(winner, requestHash);
      }
    });
  }

  /** The tokens' master bytes of a creation with an Idempotency-Key (records stored before salts: the key's alone). */
  private tokenMaster(record: IdempotencyRecord): Promise<Buffer> {
    return this.deps.tokenMinter.master(record.salt === undefined ? record.keyHash : `${record.keyHash}|${record.salt}`);
  }

  /** Decides the creation, then counts it (`admit`), then stores it: a refused creation is not counted, a creation past the quota stores nothing. */
  private async create(ruleset: Ruleset, request: CreateGameBody, admit: () => Promise<void>, tournament?: TournamentEntry, idempotency?: IdempotencyRecord): Promise<CreatedGame> {
    const body = withNewGameOptions(ruleset, request);
    const beacon = body.randomness && offeredChain(this.deps.beacons, body.randomness.beacon);
    const seed = this.deps.randomSeed();
    const commitment = commitmentOf(seed);
    if (ruleset.creationOptions) {
      const fits = ruleset.creationOptions.safeParse(body.options ?? {}, IN_WORDS);
      if (!fits.success) throw invalidRequest(fieldIssues(fits.error, 'options'));
    }
    let created;
    try {
      created = decideCreate(ruleset, body, commitment, tournament?.tournamentId, beacon);
    } catch (error) {
      if (error instanceof z.ZodError) {
        // The same options again, for zod's issues in a player's words (decideCreate is the domain's, and replays with zod's own).
        const worded = ruleset.options.safeParse(body.options ?? {}, IN_WORDS);
        throw invalidRequest(fieldIssues(worded.success ? error : worded.error, 'options'));
      }
      throw error;
    }
    await admit();
    const sides = created.data.sides as string[];
    const tokens = creationTokens(sides, idempotency && (await this.tokenMaster(idempotency)));
    const gameId = idempotency?.gameId ?? this.deps.newGameId();
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
          recordedAt: this.deps.now(),
          kid: this.deps.signer.kid,
        }),
      ],
      false,
    );
    const sealedSeed = await this.deps.seedVault.seal(gameId, seed);
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
    if (this.deps.expiry && !tournament) await this.deps.leases!.arm(gameId, leaseEnd(this.deps.expiry, first.recordedAt, gameId));
    await this.deps.store.createGame(first, secrets, head, sealedSeed, idempotency);
    // The only writer knows the new game whole: its first command folds nothing from the store.
    if (this.deps.soleWriter) this.deps.games.offer(gameId, { state: evolveGame(undefined, first), secrets, sealedSeed });
    this.deps.feed.announce(first);
    return { gameId, ruleset: ruleset.id, sides, commitment, version: 1, tokens, ...(tournament ? { tournamentId: tournament.tournamentId } : {}) };
  }

  /** The answer to a creation's Idempotency-Key used again: the same game, the same tokens. */
  private async replayCreation(record: IdempotencyRecord, requestHash: string): Promise<CreatedGame> {
    if (record.requestHash !== requestHash) {
      throw new ApplicationError(422, 'idempotency_key_reused', 'This Idempotency-Key created a game from a different request. Use a new key for a new game.', { gameId: record.gameId });
    }
    let game: CachedGame;
    try {
      game = await this.deps.games.load(record.gameId);
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
}
