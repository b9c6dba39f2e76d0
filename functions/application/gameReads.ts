import { bundleOf, sealingOf } from './exportBundle';
import type { GameHead } from '../../domain/trust/gameHead';
import type { ExportBundle, VerificationReport } from '../../domain/verify/verifyBundle';
import type { CommitLog } from '../ports/eventStore';
import type { Signer } from '../ports/signer';
import type { CommitFeed } from './commitFeed';
import type { Credentials, ReadAccess } from './credentials';
import { abandonedAt, expires, type ExpiryPolicy } from './gameExpiry';
import type { GameHeads } from './gameHeads';
import type { CachedGame, GameRepository } from './gameRepository';
import { revealLate } from './revealLateness';
import type { BeaconChain, BeaconSignatureCheck } from '../../domain/beacon/chain';
import type { GameState } from '../../domain/game/gameState';
import { clockView, type ClockView } from '../../domain/game/clock';

export interface GameReadsDeps {
  store: Pick<CommitLog, 'read'>;
  games: GameRepository;
  credentials: Credentials;
  heads: GameHeads;
  feed: CommitFeed;
  signer: Signer;
  expiry?: ExpiryPolicy;
  soleWriter: boolean;
  now: () => string;
  /** Checks drand signatures for GET /games/{id}/verify of beacon games (the BLS code; absent, the report says they are not checked). */
  beaconCheck?: BeaconSignatureCheck;
  /** The chains this server offers: the operator's own count as pinned for its own verification. */
  beaconChains?: ReadonlyMap<string, BeaconChain>;
}

/** The voided commits the game knows, those `wanted`, as GET /games/{id} and /events list them. */
export function voidedList(state: GameState, wanted: (seq: number) => boolean) {
  return [...state.voided].filter(([seq]) => wanted(seq)).map(([seq, { by, reason }]) => ({ seq, voidedBy: { seq: by, reason } }));
}

/** The reads of a game: its view, its events (and their long poll), its head, its export and its verification. */
export class GameReads {
  constructor(private readonly deps: GameReadsDeps) {}

  /** GET /games/{id}. */
  async view(gameId: string, token: string | undefined) {
    const game = await this.deps.games.load(gameId);
    const s = game.state;
    // Who the token is, so a page knows whether to offer a command box; null: a public game read without a token of its own.
    const access = await this.deps.credentials.readAccess(game, token);
    const { expiry } = this.deps;
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
      clock: clockView(s, this.deps.now()),
      abandonedAt: expires(expiry, s, game.secrets.tournamentId) ? new Date(abandonedAt(expiry, s.lastRecordedAt)).toISOString() : null,
      ...(s.beacon ? { beacon: this.beaconView(s) } : {}),
      ...(s.voided.size ? { voided: voidedList(s, () => true) } : {}),
      ...(s.rulings ? { rulings: s.rulings } : {}),
    };
  }

  /** GET /games/{id}/clock: whose move it is and the time each side used, as of the last commit; who is overdue now. */
  async clock(gameId: string, token: string | undefined): Promise<ClockView> {
    const { state } = await this.loadForRead(gameId, token);
    return clockView(state, this.deps.now());
  }

  /** A beacon game's chain, and the roll that waits for its round (late: the reveal is overdue, beacon.md §7). */
  private beaconView(s: GameState) {
    const { chain, chainHash, period } = s.beacon!;
    const pending = s.pending;
    return {
      chain,
      chainHash,
      ...(pending
        ? { pending: { seq: pending.seq, round: pending.round, roundAt: pending.roundAt, late: revealLate(period, pending.roundAt, Date.parse(this.deps.now())) } }
        : {}),
    };
  }

  /** GET /games/{id}/events. */
  async events(gameId: string, token: string | undefined, after: number, limit: number, waitSeconds = 0) {
    const { store, games } = this.deps;
    let game = await this.loadForRead(gameId, token);
    if (waitSeconds > 0 && game.state.version <= after) {
      const newerExists = this.deps.soleWriter
        ? async () => (games.peek(gameId)?.state.version ?? 0) > after
        : async () => (await store.read(gameId, after, 1)).length > 0;
      const revoked = () => this.readAccess(gameId, token).then(() => false, () => true);
      // A revocation while it waits ends the wait at once; the check below then answers it.
      await this.deps.feed.waiters.wait(gameId, waitSeconds * 1000, async () => (await newerExists()) || (await revoked()));
      game = await this.loadForRead(gameId, token);
    }
    // Only commits stored before the token was last checked: none from after a revocation.
    const { state } = game;
    const { version } = state;
    const commits = after >= version ? [] : (await store.read(gameId, after, limit)).filter((c) => c.seq <= version);
    return { gameId, version, commits, state };
  }

  /** GET /games/{id}/export: fairness-v1 §7. */
  async exportBundle(gameId: string, token: string | undefined): Promise<ExportBundle> {
    const game = await this.loadForRead(gameId, token);
    const commits = await this.deps.store.read(gameId, 0);
    const last = commits.at(-1)!;
    // The head names the file's own last commit: a shortened copy no longer matches it.
    const head = await this.deps.heads.headOf(gameId, last.seq, last.hash, sealingOf(commits) !== undefined);
    return bundleOf({ gameId, ruleset: game.state.ruleset.id, commitment: game.state.commitment }, commits, head, this.deps.signer);
  }

  /** GET /games/{id}/head: the server's signed word on where the game ends now (trust.md §4). */
  async head(gameId: string, token: string | undefined): Promise<GameHead> {
    const { state } = await this.loadForRead(gameId, token);
    return this.deps.heads.headOf(gameId, state.version, state.lastHash, state.sealed);
  }

  async verify(gameId: string, token: string | undefined): Promise<VerificationReport> {
    const { beaconCheck, beaconChains } = this.deps;
    const trustedChains = [...(beaconChains?.values() ?? [])].map((chain) => chain.chainHash);
    // The verifier replays with every ruleset at hand (the registry): loaded on demand, for this route alone.
    const { verifyBundle } = await import('../../domain/verify/verifyBundle');
    return verifyBundle(await this.exportBundle(gameId, token), { check: beaconCheck, trustedChains });
  }

  /** Whether this token may read the game now (Credentials.readAccess): 404 for no such game, 401 for a token that does not read it. */
  async readAccess(gameId: string, token: string | undefined): Promise<ReadAccess> {
    return this.deps.credentials.readAccess(await this.deps.games.load(gameId), token);
  }

  private async loadForRead(gameId: string, token: string | undefined): Promise<CachedGame> {
    const game = await this.deps.games.load(gameId);
    await this.deps.credentials.readAccess(game, token);
    return game;
  }
}
