import type { Commit } from '../../domain/fairness/hashChain';
import type { GameHead } from '../../domain/trust/gameHead';
import type { GameLeases } from '../application/gameExpiry';
import type { CreationCounter } from '../application/creationQuota';
import type { Snapshot, SnapshotStore } from '../application/snapshots';
import type { DieSizeAggregate } from '../../domain/stats/publicStats';
import type { PublicStatsStore } from '../ports/publicStatsStore';
import { appendItem, commitItem } from './commitItems';
import { checkItemSize } from './itemSize';
import { GameIdTaken, IdempotencyKeyTaken, TournamentIdTaken, type IdempotencyRecord, type AppendResult, type EventStore, type GameSecrets, type IssuedToken, type TournamentRecord, type ViewerRecord } from '../ports/eventStore';

/** The in-memory adapter, for tests. Stores copies, as a database would, and refuses items DynamoDB would refuse. */
export class MemoryEventStore implements EventStore {
  private readonly streams = new Map<string, string[]>();
  private readonly secrets = new Map<string, string>();
  private readonly viewers = new Map<string, Map<string, string>>();
  private readonly heads = new Map<string, string>();
  private readonly seeds = new Map<string, string>();
  private readonly idempotency = new Map<string, string>();
  private readonly issuedTokens = new Map<string, string[]>();
  private readonly tournaments = new Map<string, string>();
  private readonly tournamentGames = new Map<string, string[]>();

  async createGame(first: Commit, secrets: GameSecrets, head?: GameHead, sealedSeed?: string, idempotency?: IdempotencyRecord): Promise<void> {
    if (idempotency && this.idempotencyTaken(idempotency)) throw new IdempotencyKeyTaken();
    if (this.streams.has(first.gameId)) throw new GameIdTaken(first.gameId);
    checkItemSize(commitItem(first, head));
    if (idempotency) this.idempotency.set(idempotency.keyHash, JSON.stringify(idempotency));
    if (sealedSeed !== undefined) this.seeds.set(first.gameId, sealedSeed);
    this.secrets.set(first.gameId, JSON.stringify(secrets));
    this.streams.set(first.gameId, [JSON.stringify(first)]);
    if (head) this.heads.set(`${first.gameId}#1`, JSON.stringify(head));
  }

  async readIdempotency(keyHash: string, nowSeconds = Date.now() / 1000): Promise<IdempotencyRecord | undefined> {
    const text = this.idempotency.get(keyHash);
    const record: IdempotencyRecord | undefined = text ? JSON.parse(text) : undefined;
    return record && record.expiresAt > nowSeconds ? record : undefined;
  }

  /** As DynamoDB's condition: a record of the key that had not expired when this one was made. */
  private idempotencyTaken(record: IdempotencyRecord): boolean {
    const text = this.idempotency.get(record.keyHash);
    if (!text) return false;
    return record.createdAt === undefined || (JSON.parse(text) as IdempotencyRecord).expiresAt > record.createdAt;
  }

  async readSeed(gameId: string): Promise<string | undefined> {
    return this.seeds.get(gameId);
  }

  async writeSeed(gameId: string, sealedSeed: string): Promise<void> {
    this.seeds.set(gameId, sealedSeed);
  }

  async readHead(gameId: string, seq: number): Promise<GameHead | undefined> {
    const text = this.heads.get(`${gameId}#${seq}`);
    return text ? JSON.parse(text) : undefined;
  }

  async readLastHead(gameId: string): Promise<GameHead | undefined> {
    const last = this.streams.get(gameId)?.length;
    return last === undefined ? undefined : this.readHead(gameId, last);
  }

  async append(commit: Commit, head?: GameHead): Promise<AppendResult> {
    return this.appendGroup([commit], head);
  }

  async appendGroup(commits: readonly Commit[], head?: GameHead): Promise<AppendResult> {
    const first = commits[0];
    const stream = this.streams.get(first.gameId);
    if (!stream) throw new Error(`no game ${first.gameId}`);
    if (stream.length >= first.seq) return { ok: false, existing: JSON.parse(stream[first.seq - 1]) };
    if (first.seq !== stream.length + 1) throw new Error(`seq ${first.seq} leaves a gap after ${stream.length}`);
    commits.forEach((commit, i) => {
      if (commit.seq !== first.seq + i) throw new Error('a group holds consecutive seqs');
    });
    // The limit DynamoDB sets on an item, measured on the item the DynamoDB store would write.
    checkItemSize(appendItem(commits, head));
    for (const commit of commits) stream.push(JSON.stringify(commit));
    const last = commits.at(-1)!;
    if (head) this.heads.set(`${last.gameId}#${last.seq}`, JSON.stringify(head));
    return { ok: true };
  }

  async read(gameId: string, after: number, limit?: number): Promise<Commit[]> {
    const stream = this.streams.get(gameId) ?? [];
    const end = limit === undefined ? stream.length : Math.min(stream.length, after + limit);
    return stream.slice(Math.max(0, after), end).map((text) => JSON.parse(text));
  }

  async findCommandId(gameId: string, commandId: string): Promise<number | undefined> {
    return (await this.read(gameId, 0)).find((commit) => commit.commandId === commandId)?.seq;
  }

  async readSecrets(gameId: string): Promise<GameSecrets | undefined> {
    const text = this.secrets.get(gameId);
    return text ? JSON.parse(text) : undefined;
  }

  async replaceSecrets(gameId: string, secrets: GameSecrets): Promise<void> {
    if (!this.secrets.has(gameId)) throw new Error(`no game ${gameId}`);
    this.secrets.set(gameId, JSON.stringify(secrets));
  }

  async addViewer(gameId: string, viewer: ViewerRecord): Promise<void> {
    const viewers = this.viewers.get(gameId) ?? new Map<string, string>();
    if (viewers.has(viewer.viewerId)) throw new Error(`viewer ${viewer.viewerId} exists`);
    viewers.set(viewer.viewerId, JSON.stringify(viewer));
    this.viewers.set(gameId, viewers);
  }

  async revokeViewer(gameId: string, viewerId: string): Promise<boolean> {
    const text = this.viewers.get(gameId)?.get(viewerId);
    if (!text) return false;
    this.viewers.get(gameId)!.set(viewerId, JSON.stringify({ ...JSON.parse(text), revoked: true }));
    return true;
  }

  async readViewers(gameId: string): Promise<ViewerRecord[]> {
    return [...(this.viewers.get(gameId)?.values() ?? [])].map((text) => JSON.parse(text));
  }

  async addIssuedToken(gameId: string, token: IssuedToken): Promise<void> {
    const list = this.issuedTokens.get(gameId) ?? [];
    if (list.some((text) => (JSON.parse(text) as IssuedToken).tokenId === token.tokenId)) throw new Error(`token ${token.tokenId} exists`);
    this.issuedTokens.set(gameId, [...list, JSON.stringify(token)]);
  }

  async readIssuedTokens(gameId: string): Promise<IssuedToken[]> {
    return (this.issuedTokens.get(gameId) ?? []).map((text) => JSON.parse(text));
  }

  async createTournament(tournament: TournamentRecord): Promise<void> {
    if (this.tournaments.has(tournament.tournamentId)) throw new TournamentIdTaken(tournament.tournamentId);
    this.tournaments.set(tournament.tournamentId, JSON.stringify(tournament));
  }

  async findTournamentByTokenHash(tokenHash: string): Promise<string | undefined> {
    for (const text of this.tournaments.values()) {
      const record = JSON.parse(text) as TournamentRecord;
      if (record.tokenHash === tokenHash) return record.tournamentId;
    }
    return undefined;
  }

  async readTournament(tournamentId: string): Promise<TournamentRecord | undefined> {
    const text = this.tournaments.get(tournamentId);
    return text ? JSON.parse(text) : undefined;
  }

  async addTournamentGame(tournamentId: string, gameId: string): Promise<void> {
    this.tournamentGames.set(tournamentId, [...(this.tournamentGames.get(tournamentId) ?? []), gameId]);
  }

  async listTournamentGames(tournamentId: string): Promise<string[]> {
    return [...(this.tournamentGames.get(tournamentId) ?? [])];
  }

  /** Every item of the game, as the sweep of an abandoned game deletes them. */
  forgetGame(gameId: string): void {
    for (const map of [this.streams, this.secrets, this.viewers, this.seeds, this.issuedTokens]) map.delete(gameId);
    for (const key of [...this.heads.keys()]) if (key.startsWith(`${gameId}#`)) this.heads.delete(key);
  }

  hasAnythingOf(gameId: string): boolean {
    return [this.streams, this.secrets, this.viewers, this.seeds, this.issuedTokens].some((map) => map.has(gameId)) || [...this.heads.keys()].some((key) => key.startsWith(`${gameId}#`));
  }
}

/** The leases of a MemoryEventStore's games, for tests. */
export class MemoryGameLeases implements GameLeases {
  readonly leases = new Map<string, number>();

  constructor(private readonly store: MemoryEventStore) {}

  async arm(gameId: string, expiresAt: number): Promise<void> {
    this.leases.set(gameId, expiresAt);
  }

  async disarm(gameId: string): Promise<void> {
    this.leases.delete(gameId);
  }

  async due(now: number, limit: number): Promise<string[]> {
    return [...this.leases].filter(([, end]) => end <= now).slice(0, limit).map(([gameId]) => gameId);
  }

  async lastCommit(gameId: string): Promise<{ recordedAt: string; sealed: boolean } | undefined> {
    const commits = await this.store.read(gameId, 0);
    const last = commits.at(-1);
    if (!last) return undefined;
    return { recordedAt: last.recordedAt, sealed: commits.some((c) => c.events.some((e) => e.type === 'GameSealed')) };
  }

  async deleteGame(gameId: string): Promise<void> {
    this.store.forgetGame(gameId);
    this.leases.delete(gameId);
  }
}

/** Creation counts in memory, for tests. */
export class MemoryCreationCounter implements CreationCounter {
  readonly counts = new Map<string, number>();

  async count(client: string, windowEnd: number, limit: number): Promise<boolean> {
    const key = `${client}#${windowEnd}`;
    const n = this.counts.get(key) ?? 0;
    if (n >= limit) return false;
    this.counts.set(key, n + 1);
    return true;
  }
}

/** Snapshots in memory, for tests; stored as text, as a database would copy them. */
export class MemorySnapshots implements SnapshotStore {
  readonly stored = new Map<string, string>();
  writes = 0;

  async read(gameId: string): Promise<Snapshot | undefined> {
    const text = this.stored.get(gameId);
    return text ? JSON.parse(text) : undefined;
  }

  async write(gameId: string, snapshot: Snapshot): Promise<void> {
    this.writes += 1;
    this.stored.set(gameId, JSON.stringify(snapshot));
  }
}

/** The public dice statistics in memory, for tests: each die size's counts and the games in them. */
export class MemoryPublicStats implements PublicStatsStore {
  private readonly bySides = new Map<number, { counts: number[]; gameIds: Set<string> }>();

  async addGame(gameId: string, countsBySides: ReadonlyMap<number, readonly number[]>): Promise<void> {
    for (const [sides, counts] of countsBySides) {
      const stored = this.bySides.get(sides) ?? { counts: new Array<number>(sides).fill(0), gameIds: new Set<string>() };
      if (stored.gameIds.has(gameId)) continue;
      stored.gameIds.add(gameId);
      stored.counts = stored.counts.map((n, i) => n + counts[i]);
      this.bySides.set(sides, stored);
    }
  }

  async readAll(): Promise<DieSizeAggregate[]> {
    return [...this.bySides].map(([sides, { counts, gameIds }]) => ({ sides, counts: [...counts], games: gameIds.size }));
  }
}
