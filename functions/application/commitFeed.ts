import type { Commit } from '../../domain/fairness/hashChain';
import { CommitWaiters } from './commitWaiters';

/**
 * What this process tells about its games as they change: each commit it stores (a push
 * channel's source on a sole writer), each change of who may read a game other than by a
 * commit (a spectator link revoked), and the long polls waiting for either.
 */
export class CommitFeed {
  readonly waiters = new CommitWaiters();
  private readonly commitListeners = new Set<(commit: Commit) => void>();
  private readonly accessListeners = new Set<(gameId: string) => void>();

  onCommit(listener: (commit: Commit) => void): () => void {
    this.commitListeners.add(listener);
    return () => void this.commitListeners.delete(listener);
  }

  onAccessChange(listener: (gameId: string) => void): () => void {
    this.accessListeners.add(listener);
    return () => void this.accessListeners.delete(listener);
  }

  /** A group of commits stored: waiters woken, then each commit announced. */
  stored(gameId: string, commits: readonly Commit[]): void {
    this.waiters.notify(gameId);
    for (const commit of commits) this.announce(commit);
  }

  announce(commit: Commit): void {
    for (const listener of this.commitListeners) {
      try {
        listener(commit);
      } catch {
        // A listener's failure is its own: the commit is stored and acknowledged regardless.
      }
    }
  }

  accessChanged(gameId: string): void {
    this.waiters.notify(gameId);
    for (const listener of this.accessListeners) {
      try {
        listener(gameId);
      } catch {
        // The revocation is stored; a listener's failure is its own.
      }
    }
  }
}
