import type { ClockView } from '../../domain/game/clock';
import { randomBytes } from 'node:crypto';
import type { Commit } from '../../domain/fairness/hashChain';
import type { GameHead } from '../../domain/trust/gameHead';
import type { ExportBundle, VerificationReport } from '../../domain/verify/verifyBundle';
import type { EventStore } from '../ports/eventStore';
import type { PublicStatsStore } from '../ports/publicStatsStore';
import type { GameLeases } from '../ports/gameLeases';
import type { SeedVault } from '../ports/seedVault';
import type { Signer } from '../ports/signer';
import type { TokenMinter } from '../ports/tokenMinter';
import type { BeaconChain, BeaconSignatureCheck } from '../../domain/beacon/chain';
import type { BeaconGameNow } from './beaconReveals';
import type { RevealPayload } from '../../domain/game/beaconRolls';
import type { PendingReveals } from '../ports/pendingReveals';
import { answeringBeaconPending } from './beaconAnswers';
import { knownChains } from './beaconOffer';
import { CommitFeed } from './commitFeed';
import { FairnessStats, noPublicStats } from './fairnessStats';
import { GameSealed } from '../../domain/errors';
import type { CreationQuota } from './creationQuota';
import { Credentials, type ReadAccess } from './credentials';
import { GameCommands } from './gameCommands';
import { GameCreation, type CreatedGame, type TournamentEntry } from './gameCreation';
import type { ExpiryPolicy } from './gameExpiry';
import { GameHeads } from './gameHeads';
import { GameReads } from './gameReads';
import { GameRepository, type CachedGame, type SnapshotUse } from './gameRepository';
import { GameSeeds } from './gameSeeds';
import { GroupCommit, type CommandOutcome } from './groupCommit';
import { KeyedLock } from './keyedLock';
import { ApplicationError } from './errors';
import type { GameSubscriptions, SubscriptionsDeps } from './gameSubscriptions';
import { onDemand, type OnDemand } from './onDemand';
import { SpectatorLinks } from './spectatorLinks';
import { noTokenMinter } from './tokenMinter';
import { TournamentGames } from './tournamentGames';
import type { Tournaments } from './tournaments';
import { TournamentTokens } from './tournamentTokens';
import { Viewers, type ViewerListing } from './viewers';

export { CommandRequest } from './gameCommands';
export { IDEMPOTENCY_SECONDS, type CreatedGame, type TournamentEntry } from './gameCreation';

export interface ServiceDeps {
  store: EventStore;
  signer: Signer;
  /** Where sealed games add their dice to the public statistics (GET /stats); none: nothing is added (noPublicStats). */
  publicStats?: PublicStatsStore;
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
  /** The beacon chains this server offers by name (quicknet, and the operator's); quicknet alone by default. */
  beaconChains?: ReadonlyMap<string, BeaconChain>;
  /**
   * Something of this deployment reveals beacon games' pending commits: BeaconReveals in this
   * process (composeReveals.ts), or a reveal function beside it (AWS). Without it, beacon games are refused.
   */
  revealsBeacons?: boolean;
  /** Where subscriptions to a game's commits are kept (notifications); none: the subscription routes answer 503. */
  subscriptions?: SubscriptionsDeps;
  /** Checks drand signatures in GET /games/{id}/verify (beaconSignatureValid: BLS code, which only the processes that verify bundle). */
  beaconCheck?: BeaconSignatureCheck;
  /** Where pending commits wait for their reveal; needed with revealsBeacons. */
  pendingReveals?: PendingReveals;
}

/**
 * The application, composed of its use cases over one GameRepository: creation, commands,
 * reads, spectator links and tournaments. No rule lives here; the domain decides, this
 * layer stores and guards. The HTTP handlers, push channels and tests call this facade.
 */
export class GameService {
  private readonly games: GameRepository;
  private readonly feed = new CommitFeed();
  private readonly groupCommit: GroupCommit;
  private readonly creation: GameCreation;
  private readonly commands: GameCommands;
  private readonly reads: GameReads;
  private readonly links: SpectatorLinks;
  private readonly tournamentGames: TournamentGames;
  private readonly now: () => string;
  private readonly soleWriter: boolean;
  readonly tournaments: OnDemand<Tournaments>;
  readonly stats: FairnessStats;
  private readonly gameSubscriptions?: OnDemand<GameSubscriptions>;

  constructor(private readonly deps: ServiceDeps) {
    if (deps.expiry && !deps.leases) throw new Error('an expiry policy needs a lease store');
    if (deps.revealsBeacons && !deps.pendingReveals) throw new Error('beacon games need a store of pending reveals');
    const { store, signer } = deps;
    const soleWriter = deps.soleWriter === true;
    const now = deps.now ?? (() => new Date().toISOString());
    const locks = new KeyedLock();
    const games = new GameRepository(store, deps.cacheSize ?? 1000, soleWriter, deps.snapshots);
    const viewers = new Viewers(store, games, soleWriter);
    const tournamentTokens = new TournamentTokens(store);
    const credentials = new Credentials(store, games, viewers, tournamentTokens);
    const seeds = new GameSeeds(store, deps.seedVault, games, locks);
    const heads = new GameHeads(store, signer, now);
    this.games = games;
    this.now = now;
    this.soleWriter = soleWriter;
    this.groupCommit = new GroupCommit({
      store,
      games,
      signer,
      now,
      soleWriter,
      maxGroup: deps.maxGroup ?? 1,
      itemBudget: deps.itemBudget,
      expiry: deps.expiry,
      leases: deps.leases,
      gameKey: (game, state) => seeds.gameKey(game, state),
      serverSeed: (game) => seeds.serverSeed(game),
      // Only where something reveals: elsewhere a roll in a beacon game is refused (422), not left waiting.
      pendingReveals: deps.revealsBeacons ? deps.pendingReveals : undefined,
      stored: (gameId, commits) => this.feed.stored(gameId, commits),
    });
    const beacons = { chains: deps.beaconChains ?? knownChains(), reveals: deps.revealsBeacons === true };
    this.creation = new GameCreation({
      store,
      games,
      feed: this.feed,
      signer,
      seedVault: deps.seedVault,
      tokenMinter: deps.tokenMinter ?? noTokenMinter,
      now,
      randomSeed: deps.randomSeed ?? (() => randomBytes(32)),
      newGameId: deps.newGameId ?? (() => `g-${randomBytes(12).toString('base64url')}`),
      expiry: deps.expiry,
      leases: deps.leases,
      creationQuota: deps.creationQuota,
      soleWriter,
      beacons,
    });
    this.commands = new GameCommands({ games, credentials, seeds, groupCommit: this.groupCommit, locks, now, soleWriter });
    this.reads = new GameReads({ store, games, credentials, heads, feed: this.feed, signer, expiry: deps.expiry, soleWriter, now, beaconCheck: deps.beaconCheck, beaconChains: beacons.chains });
    this.links = new SpectatorLinks(games, credentials, viewers, this.feed, now);
    // Only the subscription routes use it: loaded by their first request.
    const subscriptions = deps.subscriptions;
    this.gameSubscriptions = subscriptions && onDemand(async () => new (await import('./gameSubscriptions')).GameSubscriptions(games, credentials, tournamentTokens, subscriptions, now));
    this.tournamentGames = new TournamentGames(store, games, heads, signer);
    this.stats = new FairnessStats({ store, games, credentials, publicStats: deps.publicStats ?? noPublicStats });
    // Only the tournament routes use it: loaded by their first request.
    const creation = this.creation;
    const tournamentGames = this.tournamentGames;
    this.tournaments = onDemand(async () => new (await import('./tournaments')).Tournaments(store, creation, tournamentGames, tournamentTokens, now, beacons, deps.creationQuota));
  }

  /**
   * Calls `listener` with each commit this process stores, after it is stored (a push
   * channel's source on a sole writer). Returns the function that stops it.
   */
  onCommit(listener: (commit: Commit) => void): () => void {
    return this.feed.onCommit(listener);
  }

  /**
   * Calls `listener` with a game's id when who may read it changed other than by a commit (a
   * spectator link revoked): a push channel re-checks its subscriptions with readAccess.
   */
  onAccessChange(listener: (gameId: string) => void): () => void {
    return this.feed.onAccessChange(listener);
  }

  /** POST, GET and DELETE /games/{id}/subscriptions and the e-mail links (gameSubscriptions.ts). */
  get subscriptions(): OnDemand<GameSubscriptions> {
    if (!this.gameSubscriptions) throw new ApplicationError(503, 'unavailable', 'This server sends no notifications.');
    return this.gameSubscriptions;
  }

  /** Resolves once every command this process took is written and its work after the answer (a snapshot) done: before its store closes. */
  async idle(): Promise<void> {
    await this.groupCommit.idle();
    await this.games.idle();
  }

  /** A game deleted from the store (an abandoned game swept) leaves the cache. */
  forgetGame(gameId: string): void {
    this.games.forget(gameId);
  }

  get signer(): Signer {
    return this.deps.signer;
  }

  /** POST /games (gameCreation.ts). */
  createGame(body: unknown, tournament?: TournamentEntry, idempotencyKey?: string, client?: string): Promise<CreatedGame> {
    return this.creation.createGame(body, tournament, idempotencyKey, client);
  }

  /** POST /games/{id}/commands. */
  async submit(gameId: string, token: string | undefined, body: unknown): Promise<CommandOutcome> {
    let outcome: CommandOutcome;
    try {
      outcome = await answeringBeaconPending(() => this.commands.submit(gameId, token, body), this.now);
    } catch (error) {
      // A seal whose statistics failed after it was stored (a 503) and is sent again with a new commandId meets the sealed
      // game: add its dice now (adding is idempotent by game), or it would never be counted. The refusal stands either way.
      if (error instanceof GameSealed && isSeal(body)) await this.stats.addSealedGame(gameId).catch(() => undefined);
      throw error;
    }
    await this.stats.afterCommit(outcome.commit);
    return outcome;
  }

  /** POST /games/{id}/tokens/{role}. */
  reissueToken(gameId: string, token: string | undefined, role: string) {
    return answeringBeaconPending(() => this.commands.reissueToken(gameId, token, role), this.now);
  }

  /** DELETE /games/{id}/tokens/{role}. */
  revokeToken(gameId: string, token: string | undefined, role: string) {
    return answeringBeaconPending(() => this.commands.revokeToken(gameId, token, role), this.now);
  }

  /** The server's reveal of a pending commit (beacon.md §2.3): BeaconReveals calls it, and tests. */
  reveal(gameId: string, payload: RevealPayload): Promise<CommandOutcome> {
    return this.groupCommit.reveal(gameId, payload);
  }

  /** A beacon game's chain and pending roll as stored now (not as a cache another process may have moved past); undefined for another game. */
  async beaconGameNow(gameId: string): Promise<BeaconGameNow | undefined> {
    const { state } = this.soleWriter ? (this.games.peek(gameId) ?? (await this.games.load(gameId))) : await this.games.load(gameId, true);
    return state.beacon
      ? { chain: state.beacon, version: state.version, pending: state.pending && { seq: state.pending.seq, round: state.pending.round, roundAt: state.pending.roundAt } }
      : undefined;
  }

  /** GET /games/{id}. */
  view(gameId: string, token: string | undefined) {
    return this.reads.view(gameId, token);
  }

  /** GET /games/{id}/events. */
  events(gameId: string, token: string | undefined, after: number, limit: number, waitSeconds = 0) {
    return this.reads.events(gameId, token, after, limit, waitSeconds);
  }

  /** GET /games/{id}/export. */
  exportBundle(gameId: string, token: string | undefined): Promise<ExportBundle> {
    return this.reads.exportBundle(gameId, token);
  }

  /** GET /games/{id}/head. */
  clock(gameId: string, token: string | undefined): Promise<ClockView> {
    return this.reads.clock(gameId, token);
  }

  head(gameId: string, token: string | undefined): Promise<GameHead> {
    return this.reads.head(gameId, token);
  }

  verify(gameId: string, token: string | undefined): Promise<VerificationReport> {
    return this.reads.verify(gameId, token);
  }

  /** Whether this token may read the game now: 404 for no such game, 401 for a token that does not read it. */
  readAccess(gameId: string, token: string | undefined): Promise<ReadAccess> {
    return this.reads.readAccess(gameId, token);
  }

  tournamentGame(tournamentId: string, gameId: string): Promise<{ game: CachedGame; head: GameHead } | undefined> {
    return this.tournamentGames.tournamentGame(tournamentId, gameId);
  }

  tournamentGameHead(tournamentId: string, gameId: string): Promise<GameHead | undefined> {
    return this.tournamentGames.tournamentGameHead(tournamentId, gameId);
  }

  tournamentExportAt(tournamentId: string, head: GameHead): Promise<ExportBundle> {
    return this.tournamentGames.tournamentExportAt(tournamentId, head);
  }

  /** POST /games/{id}/viewers. */
  addViewer(gameId: string, token: string | undefined, body: unknown): Promise<{ viewerId: string; token: string; label?: string }> {
    return this.links.addViewer(gameId, token, body);
  }

  /** GET /games/{id}/viewers. */
  listViewers(gameId: string, token: string | undefined): Promise<{ gameId: string; viewers: ViewerListing[] }> {
    return this.links.listViewers(gameId, token);
  }

  /** DELETE /games/{id}/viewers/{viewerId}. */
  revokeViewer(gameId: string, token: string | undefined, viewerId: string): Promise<void> {
    return this.links.revokeViewer(gameId, token, viewerId);
  }
}

const isSeal = (body: unknown) => typeof body === 'object' && body !== null && (body as { type?: unknown }).type === 'Seal';
