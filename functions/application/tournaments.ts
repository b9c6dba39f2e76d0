import { randomBytes } from 'node:crypto';
import { TournamentIdTaken, type TournamentRecord, type TournamentStore } from '../ports/eventStore';
import { signTournamentHead } from '../../domain/trust/tournamentHead';
import type { GameHead } from '../../domain/trust/gameHead';
import { pageOf, TOURNAMENT_PAGE_DEFAULT, type GamePage } from './tournamentPages';
import { ApplicationError, invalidRequest, unauthenticated } from './errors';
import type { CreatedGame, GameCreation } from './gameCreation';
import type { TournamentGameReads } from './tournamentGames';
import { hashToken, newToken } from './tokens';
import { TOURNAMENT_EXPORT_FORMAT, type TournamentExportHeader } from '../../domain/verify/tournamentHeader';
import { CreateTournamentRequest } from './tournamentShapes';
import type { TournamentTokens } from './tournamentTokens';
import { fieldIssues, IN_WORDS } from './zodIssues';
import type { CreationQuota } from './creationQuota';
import { offeredChain, type BeaconOffer } from './beaconOffer';
import { overdueSides } from '../../domain/game/clock';

/** Every game of a tournament where it ends, as its export lists them. */
export interface TournamentSnapshot {
  record: TournamentRecord;
  heads: GameHead[];
}

/** How many games of a tournament are read at once for its listing and export. */
const READ_AHEAD = 8;
/** How many games' stored heads are read at once: one small item each. */
const HEADS_AHEAD = 32;
const newTournamentId = () => `t-${randomBytes(12).toString('base64url')}`;

/**
 * Tournaments: a set of games created with one organizer token, listed with their signed
 * heads and exported together. The games themselves are ordinary games; the tournament's
 * token acts as their organizer (credentials.ts).
 */
export class Tournaments {
  constructor(
    private readonly store: Pick<TournamentStore, 'createTournament' | 'findTournamentByTokenHash' | 'addTournamentGame' | 'listTournamentGames'>,
    private readonly creation: Pick<GameCreation, 'createGame'>,
    private readonly games: TournamentGameReads,
    private readonly tokens: TournamentTokens,
    private readonly now: () => string,
    private readonly beacons: BeaconOffer,
    private readonly quota?: CreationQuota,
  ) {}

  /** POST /tournaments: its token is shown this once. */
  async create(body: unknown, client?: string) {
    const request = CreateTournamentRequest.safeParse(body ?? {}, IN_WORDS);
    if (!request.success) throw invalidRequest(fieldIssues(request.error));
    const { randomness, timeControl } = request.data;
    if (randomness) offeredChain(this.beacons, randomness.beacon);
    // Kept with the tournament: its games count against the quota of the client that created it.
    const creatorClient = await this.quota?.clientKeyOf(client);
    if (creatorClient !== undefined) await this.quota!.admitClient(creatorClient);
    const token = newToken();
    const record: TournamentRecord = { tournamentId: newTournamentId(), name: request.data.name ?? '', createdAt: this.now(), tokenHash: hashToken(token), ...(creatorClient !== undefined ? { creatorClient } : {}), ...(randomness ? { randomness: { beacon: randomness.beacon } } : {}), ...(timeControl ? { timeControl } : {}) };
    try {
      await this.store.createTournament(record);
    } catch (error) {
      // 96 random bits: a collision is a broken random source, not bad luck.
      if (error instanceof TournamentIdTaken) throw new Error('tournament id collision');
      throw error;
    }
    return { tournamentId: record.tournamentId, name: record.name, createdAt: record.createdAt, token, ...(record.randomness ? { randomness: record.randomness } : {}), ...(record.timeControl ? { timeControl: record.timeControl } : {}) };
  }

  /** POST /games: with a tournament's token the game belongs to that tournament; without a token it stands alone. */
  async createGame(body: unknown, token: string | undefined, idempotencyKey?: string, client?: string): Promise<CreatedGame> {
    if (token === undefined) return this.creation.createGame(body, undefined, idempotencyKey, client);
    const tournamentId = await this.tournamentOfToken(token);
    const admit = () => this.admitTournamentGame(tournamentId);
    const record = await this.tokens.record(tournamentId);
    const { randomness, timeControl } = record ?? {};
    return this.creation.createGame(
      body,
      { tournamentId, list: (gameId) => this.store.addTournamentGame(tournamentId, gameId), admit, ...(randomness ? { randomness } : {}), ...(timeControl ? { timeControl } : {}) },
      idempotencyKey,
    );
  }

  /** A tournament's game counts for the client that created the tournament; one created before that was kept, for the tournament itself. */
  private async admitTournamentGame(tournamentId: string): Promise<void> {
    if (!this.quota) return;
    const creator = (await this.tokens.record(tournamentId))?.creatorClient;
    await this.quota.admitClient(creator ?? (await this.quota.clientKeyOf(`tournament:${tournamentId}`)));
  }

  /** GET /tournaments/{id}: a page of its games in creation order, each with its signed head, and the cursor of the next page. */
  async listing(tournamentId: string, token: string | undefined, page: GamePage = { limit: TOURNAMENT_PAGE_DEFAULT }) {
    const record = await this.tokens.authenticate(tournamentId, token);
    const listed = pageOf(await this.store.listTournamentGames(tournamentId), (id) => id, page);
    const games = [];
    const now = this.now();
    for (let start = 0; start < listed.items.length; start += READ_AHEAD) {
      const found = await Promise.all(listed.items.slice(start, start + READ_AHEAD).map((id) => this.games.tournamentGame(tournamentId, id)));
      for (const entry of found) {
        if (!entry) continue;
        const { state } = entry.game;
        const toMove = state.clock.toMove;
        games.push({ gameId: state.gameId, ruleset: state.ruleset.id, title: state.title, sides: [...state.sides], version: state.version, sealed: state.sealed, toMove, overdue: overdueSides(state, now), head: entry.head });
      }
    }
    return { tournamentId, name: record.name, createdAt: record.createdAt, games, next: listed.next };
  }

  /**
   * What a tournament's export is made of: every game's signed head where it ends now, in
   * creation order, read as stored (no game is folded where the store keeps its heads).
   * An export depends on nothing else but the keys it carries.
   */
  async snapshot(tournamentId: string, token: string | undefined): Promise<TournamentSnapshot> {
    const record = await this.tokens.authenticate(tournamentId, token);
    const ids = await this.store.listTournamentGames(tournamentId);
    const heads: GameHead[] = [];
    for (let start = 0; start < ids.length; start += HEADS_AHEAD) {
      const found = await Promise.all(ids.slice(start, start + HEADS_AHEAD).map((id) => this.games.tournamentGameHead(tournamentId, id)));
      for (const head of found) if (head) heads.push(head);
    }
    return { record, heads };
  }

  /** 404 for an unknown tournament, then 401 for a token not its organizer's. */
  async authenticate(tournamentId: string, token: string | undefined): Promise<TournamentRecord> {
    return this.tokens.authenticate(tournamentId, token);
  }

  /** A snapshot taken earlier (the record of a tournament export job), with the tournament's record; undefined for a tournament no longer stored. */
  async snapshotOf(tournamentId: string, heads: GameHead[]): Promise<TournamentSnapshot | undefined> {
    const record = await this.tokens.record(tournamentId);
    return record && { record, heads };
  }

  /**
   * A tournament's export as NDJSON: a header line carrying the signed tournament head
   * (trust.md §7, over every game of the snapshot), then each game's export (fairness-v1 §7)
   * as the head lists it, on a line of its own; with a page, only that page's games.
   */
  async exportText(snapshot: TournamentSnapshot, page?: GamePage): Promise<string> {
    let text = '';
    for await (const line of this.exportLines(snapshot, page)) text += line;
    return text;
  }

  /**
   * The lines of exportText, one at a time, each with its '\n': the header first, then the
   * games as they are read (READ_AHEAD at once), so that a job writing a large export holds
   * a few games, never the whole file.
   */
  async *exportLines({ record, heads }: TournamentSnapshot, page?: GamePage): AsyncGenerator<string> {
    const { tournamentId } = record;
    const signer = this.games.signer;
    if (!signer.canSign) throw new ApplicationError(503, 'unavailable', 'This function cannot sign a tournament head: tournament exports are made where heads are signed.');
    const paged = page ? pageOf(heads, (head) => head.gameId, page) : { items: heads, next: null };
    const tournamentHead = await signTournamentHead(
      { tournamentId, games: heads.map((head) => ({ gameId: head.gameId, head: head.hash })), at: this.now(), kid: signer.kid },
      (hash) => signer.sign(hash),
    );
    const { keys, log } = signer.keysDocument();
    const header: TournamentExportHeader = {
      format: TOURNAMENT_EXPORT_FORMAT,
      tournamentId,
      name: record.name,
      exportedAt: tournamentHead.at,
      games: paged.items.length,
      tournamentHead,
      keys: { keys },
      keyLog: log,
      ...(page ? { page: { after: page.after ?? null, next: paged.next } } : {}),
    };
    yield `${JSON.stringify(header)}\n`;
    for (let start = 0; start < paged.items.length; start += READ_AHEAD) {
      const bundles = await Promise.all(paged.items.slice(start, start + READ_AHEAD).map((head) => this.games.tournamentExportAt(tournamentId, head)));
      for (const bundle of bundles) yield `${JSON.stringify(bundle)}\n`;
    }
  }

  /** The tournament a bearer token on POST /games belongs to; 401 for any other token, rather than a game nobody listed. */
  private async tournamentOfToken(token: string): Promise<string> {
    const tournamentId = await this.store.findTournamentByTokenHash(hashToken(token));
    if (!tournamentId || !(await this.tokens.holds(tournamentId, token))) {
      throw unauthenticated('POST /games takes no token, or a tournament\'s token to create the game in that tournament; this token is neither.');
    }
    return tournamentId;
  }
}
