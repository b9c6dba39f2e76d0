import { randomBytes } from 'node:crypto';
import type { ExportBundle } from '../../domain/verify/verifyBundle';
import { TournamentIdTaken, type EventStore, type TournamentRecord } from '../store/eventStore';
import { invalidRequest, unauthenticated } from './errors';
import type { CreatedGame, GameService } from './gameService';
import { hashToken, newToken } from './tokens';
import { TOURNAMENT_EXPORT_FORMAT, type TournamentExportHeader } from '../../domain/verify/tournamentExport';
import { CreateTournamentRequest } from './tournamentShapes';
import type { TournamentTokens } from './tournamentTokens';
import { fieldIssues } from './zodIssues';
import type { CreationQuota } from './creationQuota';

/** How many games of a tournament are read at once for its listing. */
const READ_AHEAD = 8;
const newTournamentId = () => `t-${randomBytes(12).toString('base64url')}`;

/**
 * Tournaments: a set of games created with one organizer token, listed with their signed
 * heads and exported together. The games themselves are ordinary games; the tournament's
 * token acts as their organizer (credentials.ts).
 */
export class Tournaments {
  constructor(
    private readonly store: EventStore,
    private readonly games: GameService,
    private readonly tokens: TournamentTokens,
    private readonly now: () => string,
    private readonly quota?: CreationQuota,
  ) {}

  /** POST /tournaments: its token is shown this once. */
  async create(body: unknown, client?: string) {
    const request = CreateTournamentRequest.safeParse(body ?? {});
    if (!request.success) throw invalidRequest(fieldIssues(request.error));
    // Kept with the tournament: its games count against the quota of the client that created it.
    const creatorClient = await this.quota?.clientKeyOf(client);
    if (creatorClient !== undefined) await this.quota!.admitClient(creatorClient);
    const token = newToken();
    const record: TournamentRecord = { tournamentId: newTournamentId(), name: request.data.name ?? '', createdAt: this.now(), tokenHash: hashToken(token), ...(creatorClient !== undefined ? { creatorClient } : {}) };
    try {
      await this.store.createTournament(record);
    } catch (error) {
      // 96 random bits: a collision is a broken random source, not bad luck.
      if (error instanceof TournamentIdTaken) throw new Error('tournament id collision');
      throw error;
    }
    return { tournamentId: record.tournamentId, name: record.name, createdAt: record.createdAt, token };
  }

  /** POST /games: with a tournament's token the game belongs to that tournament; without a token it stands alone. */
  async createGame(body: unknown, token: string | undefined, idempotencyKey?: string, client?: string): Promise<CreatedGame> {
    if (token === undefined) return this.games.createGame(body, undefined, idempotencyKey, client);
    const tournamentId = await this.tournamentOfToken(token);
    const admit = () => this.admitTournamentGame(tournamentId);
    return this.games.createGame(body, { tournamentId, list: (gameId) => this.store.addTournamentGame(tournamentId, gameId), admit }, idempotencyKey);
  }

  /** A tournament's game counts for the client that created the tournament; one created before that was kept, for the tournament itself. */
  private async admitTournamentGame(tournamentId: string): Promise<void> {
    if (!this.quota) return;
    const creator = (await this.tokens.record(tournamentId))?.creatorClient;
    await this.quota.admitClient(creator ?? (await this.quota.clientKeyOf(`tournament:${tournamentId}`)));
  }

  /** GET /tournaments/{id}: its games in creation order, each with its signed head. */
  async listing(tournamentId: string, token: string | undefined) {
    const record = await this.tokens.authenticate(tournamentId, token);
    const ids = await this.store.listTournamentGames(tournamentId);
    const games = [];
    for (let start = 0; start < ids.length; start += READ_AHEAD) {
      const found = await Promise.all(ids.slice(start, start + READ_AHEAD).map((id) => this.games.tournamentGame(tournamentId, id)));
      for (const entry of found) {
        if (!entry) continue;
        const { state } = entry.game;
        games.push({ gameId: state.gameId, ruleset: state.ruleset.id, title: state.title, sides: [...state.sides], version: state.version, sealed: state.sealed, head: entry.head });
      }
    }
    return { tournamentId, name: record.name, createdAt: record.createdAt, games };
  }

  /**
   * GET /tournaments/{id}/export: NDJSON, a header line and then each game's export
   * (fairness-v1 §7) on a line of its own, read one game at a time.
   */
  async exportText(tournamentId: string, token: string | undefined): Promise<string> {
    const record = await this.tokens.authenticate(tournamentId, token);
    const ids = await this.store.listTournamentGames(tournamentId);
    const bundles: ExportBundle[] = [];
    for (const id of ids) {
      const bundle = await this.games.tournamentExport(tournamentId, id);
      if (bundle) bundles.push(bundle);
    }
    const header: TournamentExportHeader = { format: TOURNAMENT_EXPORT_FORMAT, tournamentId, name: record.name, exportedAt: this.now(), games: bundles.length };
    return [header, ...bundles].map((line) => `${JSON.stringify(line)}\n`).join('');
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
