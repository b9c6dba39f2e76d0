import type { Commit } from '../../domain/fairness/hashChain';
import { GameIdTaken, type AppendResult, type EventStore, type GameSecrets, type ViewerRecord } from './eventStore';

/** The in-memory adapter, for tests. Stores copies, as a database would. */
export class MemoryEventStore implements EventStore {
  private readonly streams = new Map<string, string[]>();
  private readonly secrets = new Map<string, string>();
  private readonly viewers = new Map<string, Map<string, string>>();

  async createGame(first: Commit, secrets: GameSecrets): Promise<void> {
    if (this.streams.has(first.gameId)) throw new GameIdTaken(first.gameId);
    this.secrets.set(first.gameId, JSON.stringify(secrets));
    this.streams.set(first.gameId, [JSON.stringify(first)]);
  }

  async append(commit: Commit): Promise<AppendResult> {
    const stream = this.streams.get(commit.gameId);
    if (!stream) throw new Error(`no game ${commit.gameId}`);
    if (stream.length >= commit.seq) return { ok: false, existing: JSON.parse(stream[commit.seq - 1]) };
    if (commit.seq !== stream.length + 1) throw new Error(`seq ${commit.seq} leaves a gap after ${stream.length}`);
    stream.push(JSON.stringify(commit));
    return { ok: true };
  }

  async read(gameId: string, after: number, limit?: number): Promise<Commit[]> {
    const stream = this.streams.get(gameId) ?? [];
    const end = limit === undefined ? stream.length : Math.min(stream.length, after + limit);
    return stream.slice(Math.max(0, after), end).map((text) => JSON.parse(text));
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
}
