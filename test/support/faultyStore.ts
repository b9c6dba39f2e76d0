import type { Commit } from '../../domain/fairness/hashChain';
import type { GameHead } from '../../domain/trust/gameHead';
import {
  StoreUnavailable,
  type AppendResult,
  type EventStore,
  type GameSecrets,
  type IdempotencyRecord,
  type IssuedToken,
  type TournamentRecord,
  type ViewerRecord,
} from '../../functions/store/eventStore';

export type Fault = 'throttle' | 'timeout' | 'ambiguous';
export type Operation = 'createGame' | 'append' | 'read' | 'readSecrets' | 'viewers' | 'tokens' | 'tournaments';

/**
 * Wraps a store and injects faults on a schedule: throttling (refused at once),
 * timeouts (refused after a delay, nothing written) and the ambiguous case (the write
 * lands, the answer is lost). Each fault surfaces as StoreUnavailable, as the DynamoDB
 * adapter reports them.
 */
export class FaultyStore implements EventStore {
  readonly injected: Record<Fault, number> = { throttle: 0, timeout: 0, ambiguous: 0 };
  private calls = 0;

  constructor(
    private readonly inner: EventStore,
    private readonly schedule: (operation: Operation, call: number) => Fault | undefined,
    private readonly timeoutMs = 20,
  ) {}

  createGame(first: Commit, secrets: GameSecrets, head?: GameHead, sealedSeed?: string, idempotency?: IdempotencyRecord): Promise<void> {
    return this.run('createGame', () => this.inner.createGame(first, secrets, head, sealedSeed, idempotency));
  }
  readIdempotency(keyHash: string, nowSeconds?: number): Promise<IdempotencyRecord | undefined> {
    return this.run('readSecrets', () => this.inner.readIdempotency(keyHash, nowSeconds));
  }
  readSeed(gameId: string): Promise<string | undefined> {
    return this.run('readSecrets', () => this.inner.readSeed(gameId));
  }
  writeSeed(gameId: string, sealedSeed: string): Promise<void> {
    return this.run('readSecrets', () => this.inner.writeSeed(gameId, sealedSeed));
  }
  append(commit: Commit, head?: GameHead): Promise<AppendResult> {
    return this.run('append', () => this.inner.append(commit, head));
  }
  appendGroup(commits: readonly Commit[], head?: GameHead): Promise<AppendResult> {
    return this.run('append', () => this.inner.appendGroup(commits, head));
  }
  readHead(gameId: string, seq: number): Promise<GameHead | undefined> {
    return this.run('read', () => this.inner.readHead(gameId, seq));
  }
  read(gameId: string, after: number, limit?: number): Promise<Commit[]> {
    return this.run('read', () => this.inner.read(gameId, after, limit));
  }
  findCommandId(gameId: string, commandId: string): Promise<number | undefined> {
    return this.run('read', () => this.inner.findCommandId(gameId, commandId));
  }

  readSecrets(gameId: string): Promise<GameSecrets | undefined> {
    return this.run('readSecrets', () => this.inner.readSecrets(gameId));
  }
  replaceSecrets(gameId: string, secrets: GameSecrets): Promise<void> {
    return this.run('readSecrets', () => this.inner.replaceSecrets(gameId, secrets));
  }
  addViewer(gameId: string, viewer: ViewerRecord): Promise<void> {
    return this.run('viewers', () => this.inner.addViewer(gameId, viewer));
  }
  revokeViewer(gameId: string, viewerId: string): Promise<boolean> {
    return this.run('viewers', () => this.inner.revokeViewer(gameId, viewerId));
  }
  readViewers(gameId: string): Promise<ViewerRecord[]> {
    return this.run('viewers', () => this.inner.readViewers(gameId));
  }

  addIssuedToken(gameId: string, token: IssuedToken): Promise<void> {
    return this.run('tokens', () => this.inner.addIssuedToken(gameId, token));
  }
  readIssuedTokens(gameId: string): Promise<IssuedToken[]> {
    return this.run('tokens', () => this.inner.readIssuedTokens(gameId));
  }
  createTournament(tournament: TournamentRecord): Promise<void> {
    return this.run('tournaments', () => this.inner.createTournament(tournament));
  }
  readTournament(tournamentId: string): Promise<TournamentRecord | undefined> {
    return this.run('tournaments', () => this.inner.readTournament(tournamentId));
  }
  findTournamentByTokenHash(tokenHash: string): Promise<string | undefined> {
    return this.run('tournaments', () => this.inner.findTournamentByTokenHash(tokenHash));
  }
  addTournamentGame(tournamentId: string, gameId: string): Promise<void> {
    return this.run('tournaments', () => this.inner.addTournamentGame(tournamentId, gameId));
  }
  listTournamentGames(tournamentId: string): Promise<string[]> {
    return this.run('tournaments', () => this.inner.listTournamentGames(tournamentId));
  }

  private async run<T>(operation: Operation, call: () => Promise<T>): Promise<T> {
    const fault = this.schedule(operation, ++this.calls);
    if (!fault) return call();
    this.injected[fault] += 1;
    if (fault === 'throttle') throw new StoreUnavailable(new Error('injected throttling'));
    if (fault === 'timeout') {
      await new Promise((resolve) => setTimeout(resolve, this.timeoutMs));
      throw new StoreUnavailable(new Error('injected timeout'));
    }
    await call();
    throw new StoreUnavailable(new Error('injected: written, answer lost'));
  }
}
