import type { Commit, UnsignedCommit } from '../../domain/fairness/hashChain';
import type { GameState } from '../../domain/game/gameState';
import { signGameHead, type GameHead } from '../../domain/trust/gameHead';
import { StoreUnavailable, type CommitLog } from '../ports/eventStore';
import type { GameLeases } from '../ports/gameLeases';
import type { Signer } from '../ports/signer';
import { ItemTooLarge } from '../store/itemSize';
import type { ActingToken } from './credentials';
import { commandIdReused } from './errors';
import type { GameRepository } from './gameRepository';
import { expires, leaseEnd, rearms } from './gameExpiry';
import { roundTimeMs } from '../../domain/beacon/chain';
import type { RevealPayload } from '../../domain/game/beaconRolls';
import { GroupPlanner, pendingBeacon, sameCommand, type AppendJob, type AppendRequest, type CommandOutcome, type Entry, type GroupPlannerDeps } from './groupPlan';
import { GroupQueue } from './groupQueue';
import { recordTooLarge } from './recordSize';

export type { AppendRequest, CommandOutcome } from './groupPlan';

/** Attempts at one group before its commands are answered 503: a game that keeps moving under a writer never makes it spin. */
const MAX_APPEND_ATTEMPTS = 8;

/** The entries of `open` still to answer, in their arrival order. */
function unanswered<E>(open: E[], pending: { entry: E }[]): E[] {
  const left = new Set(pending.map((p) => p.entry));
  return open.filter((entry) => left.has(entry));
}

/** How many waiting commands of one game one write takes, at most: fewer when their commits would pass ITEM_BUDGET together. */
export const MAX_GROUP = 16;

/** What group commit needs of the service around it. */
export interface GroupCommitDeps extends GroupPlannerDeps {
  store: GroupPlannerDeps['store'] & Pick<CommitLog, 'appendGroup'>;
  games: GameRepository;
  signer: Signer;
  /** The only writer of its store: a cached game is current (ServiceDeps.soleWriter). */
  soleWriter: boolean;
  /** How many waiting commands of one game one write takes (MAX_GROUP, or 1). */
  maxGroup: number;
  leases?: GameLeases;
  /** After a group is stored, before its commands are answered: waiters woken, commits announced. */
  stored(gameId: string, commits: Commit[]): void;
}

/**
 * Group commit (docs/append-protocol.md): the commands of one game that wait while a write of
 * that game is in flight are decided in arrival order against the folded state, each its own
 * signed commit, and written together with one conditional write.
 */
export class GroupCommit {
  private readonly queue: GroupQueue<AppendJob, CommandOutcome>;
  private readonly planner: GroupPlanner;

  constructor(private readonly deps: GroupCommitDeps) {
    this.queue = new GroupQueue((gameId, group) => this.appendGroup(gameId, group), deps.maxGroup);
    this.planner = new GroupPlanner(deps);
  }

  /** Decides a command on the folded game and appends its commit, in a group with the commands of the game that wait with it. */
  submit(gameId: string, acting: ActingToken, request: AppendRequest): Promise<CommandOutcome> {
    return this.queue.submit(gameId, { acting, request });
  }

  /**
   * beacon.md §2.3: the server's reveal of pending commit `reveal.pending`, appended as commit
   * n+1 in the game's turn like any command; the stored reveal when it already is.
   */
  reveal(gameId: string, reveal: RevealPayload): Promise<CommandOutcome> {
    return this.queue.submit(gameId, { reveal });
  }

  /** Resolves once no group is being written or waiting. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  /**
   * One group: the waiting commands of one game decided in arrival order against the folded
   * state, each its own commit (its seq, its dice, chained to the one before), written with one
   * conditional write. A command the rules refuse is answered at once and takes no seq; a
   * retried commandId gets its stored commit. Commits that would pass ITEM_BUDGET together
   * are written in turn, as many as fit in each write. When the write loses to another writer, the
   * group is decided again on the store's state (bounded); when it fails or its answer is
   * lost, none of its commands, nor those waiting for the next write, is acknowledged: each
   * client retries with its commandId.
   */
  private async appendGroup(gameId: string, group: Entry[]): Promise<void> {
    let game = this.deps.games.peek(gameId) ?? (await this.deps.games.load(gameId));
    let open = group;
    // A state just read from the store (or a sole writer's) is current: an expectedVersion beyond it is a conflict, not a stale cache.
    let current = this.deps.soleWriter;
    for (let attempt = 1; open.length > 0; attempt++) {
      // Bounded on every path: a game that keeps moving under us answers 503, never spins.
      if (attempt > MAX_APPEND_ATTEMPTS) {
        for (const entry of open) entry.reject(new StoreUnavailable());
        return;
      }
      const plan = await this.planner.plan(game, open, current);
      if (plan.stale) {
        // A command expects a version beyond this cache's: judge it, and those refused before it, against the store.
        game = await this.deps.games.load(gameId, true);
        current = true;
        open = unanswered(open, [...plan.refused, ...plan.open.map((entry) => ({ entry }))]);
        continue;
      }
      // Never tell a client "refused" from a state another writer may have moved past (the
      // command may even be stored there, a retry sent to this process): a refusal stands once
      // the state it was judged on is known to be the game's — read from the store just now,
      // this process the only writer, the group's own write landing on it, or a read finding
      // nothing newer (docs/append-protocol.md, P5).
      const confirm = async () => current || (await this.deps.store.read(gameId, game.state.version, 1)).length === 0;
      const refuse = () => plan.refused.forEach(({ entry, error }) => entry.reject(error));
      if (plan.accepted.length === 0) {
        if (plan.refused.length > 0 && !(await confirm())) {
          game = await this.deps.games.load(gameId, true);
          current = true;
          open = unanswered(open, plan.refused);
          continue;
        }
        refuse();
        return;
      }
      if (current) refuse();
      const held = current ? [] : plan.refused;
      const before = game.state;
      let appended;
      try {
        await this.enterPendingReveals(plan.accepted.map((a) => a.unsigned), plan.state);
      } catch (error) {
        for (const { entry } of [...plan.accepted, ...plan.duplicates, ...held, ...plan.deferred.map((entry) => ({ entry }))]) entry.reject(error);
        return;
      }
      const commits = await signGroup(this.deps.signer, plan.accepted, plan.state.sealed);
      try {
        appended = await this.deps.store.appendGroup(commits.map((c) => c.commit), commits.at(-1)!.head);
      } catch (error) {
        // The write may have landed with its answer lost: trust the store, not this cache, next time.
        this.deps.games.forget(gameId);
        // Planned to fit, so never expected: a 413 rather than a 500 should the measure be wrong.
        const answer = error instanceof ItemTooLarge ? recordTooLarge(error.bytes, error.maxBytes) : error;
        for (const { entry } of [...plan.accepted, ...plan.duplicates, ...held, ...plan.deferred.map((entry) => ({ entry }))]) entry.reject(answer);
        return;
      }
      if (!appended.ok) {
        // Another process (or an earlier, ambiguous write) took the first seq: catch up from the store and decide again.
        game = await this.deps.games.load(gameId, true);
        current = true;
        open = unanswered(open, [...plan.accepted, ...plan.duplicates, ...held, ...plan.deferred.map((entry) => ({ entry }))]);
        continue;
      }
      // The group landed on the state its refusals were judged on.
      for (const { entry, error } of held) entry.reject(error);
      this.deps.games.stored(game, plan.state);
      await this.keepLease(before, game.state, game.secrets.tournamentId);
      this.deps.stored(gameId, commits.map((c) => c.commit));
      plan.accepted.forEach(({ entry }, i) => {
        const commit = commits[i].commit;
        const beacon = pendingBeacon(game.state, commit);
        entry.resolve({ created: true, version: commit.seq, commit, state: game.state, ...(beacon ? { beacon } : {}) });
      });
      for (const { entry, seq, actor, viaOrganizer } of plan.duplicates) {
        const stored = commits.find((c) => c.commit.seq === seq)!.commit;
        const job = entry.job;
        if ('reveal' in job || sameCommand(stored, job.request.command, actor, viaOrganizer)) {
          const beacon = pendingBeacon(game.state, stored);
          entry.resolve({ created: false, version: game.state.version, commit: stored, state: game.state, ...(beacon ? { beacon } : {}) });
        } else {
          entry.reject(commandIdReused(seq));
        }
      }
      // Those that did not fit in this write go in the next, decided on the state it left.
      open = plan.deferred;
      // Still bounded: each stored write answers at least one command of the group.
      attempt = 0;
    }
  }

  /**
   * Written before the group (the planner refuses a pending commit where there is no
   * PendingReveals): a pending commit stored is always one a reveal job will find
   * (an entry whose commit never lands is found so, and removed, by BeaconReveals).
   */
  private async enterPendingReveals(commits: { seq: number; events: { type: string; data: Record<string, unknown> }[] }[], state: GameState): Promise<void> {
    if (!state.beacon) return;
    for (const commit of commits) {
      const first = commit.events[0];
      if (first?.type !== 'BeaconRollPending') continue;
      const round = Number(first.data.round);
      await this.deps.pendingReveals!.add(state.gameId, commit.seq, round, roundTimeMs(state.beacon, round));
    }
  }

  /**
   * A command on a new day re-arms the game's lease; sealing drops it. A failure here costs
   * nothing but a write: the sweep judges a game by its last commit, re-arming a lease that
   * ended too soon and keeping a sealed game.
   */
  private async keepLease(before: GameState, after: GameState, tournamentId: string | undefined): Promise<void> {
    const { expiry, leases } = this.deps;
    try {
      if (!expires(expiry, before, tournamentId)) return;
      if (after.sealed) await leases!.disarm(after.gameId);
      else if (rearms(before.lastRecordedAt, after.lastRecordedAt)) await leases!.arm(after.gameId, leaseEnd(expiry, after.lastRecordedAt, after.gameId));
    } catch {
      // Logged where the store's calls are observed (functions/lambda/powertools.ts); the commit is stored.
    }
  }

}

/**
 * Signs each commit of a group, and the head of its last (`sealed` once the group leaves the
 * game sealed): the head is stored with the commit, because the functions that read may
 * publish heads but not sign them.
 */
export async function signGroup(signer: Signer, hashed: { unsigned: UnsignedCommit; hash: string }[], sealed: boolean): Promise<{ commit: Commit; head?: GameHead }[]> {
  const last = hashed.at(-1)!;
  const [head, ...signed] = await Promise.all([
    signGameHead({ gameId: last.unsigned.gameId, seq: last.unsigned.seq, lastHash: last.hash, sealed, at: last.unsigned.recordedAt, kid: last.unsigned.kid }, signer.sign),
    ...hashed.map(async ({ unsigned, hash }) => ({ ...unsigned, hash, signature: await signer.sign(hash) }) as Commit),
  ]);
  return signed.map((commit, i) => (i === signed.length - 1 ? { commit, head } : { commit }));
}
