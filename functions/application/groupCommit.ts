import { canonicalJson } from '../../domain/canonicalJson';
import { FairnessDice } from '../../domain/dice';
import type { Commit, UnsignedCommit } from '../../domain/fairness/hashChain';
import { hashedCommit, type CommitDraft } from '../../domain/game/buildCommit';
import { authorize, decideGame } from '../../domain/game/decideGame';
import { evolveGame, rememberCommandId, type GameState } from '../../domain/game/gameState';
import { ORGANIZER, type Command } from '../../domain/ruleset';
import { signGameHead, type GameHead } from '../../domain/trust/gameHead';
import { StoreUnavailable, type EventStore } from '../store/eventStore';
import { ITEM_BUDGET, ItemTooLarge } from '../store/itemSize';
import type { Credentials } from './credentials';
import { ApplicationError, commandIdReused, versionConflict } from './errors';
import type { CachedGame, GameCache } from './gameCache';
import { abandonedAt, expires, gameAbandoned, leaseEnd, rearms, type ExpiryPolicy, type GameLeases } from './gameExpiry';
import { GroupQueue, type Queued } from './groupQueue';
import type { Signer } from './signer';
import { commandShare, commitShare, ITEM_OVERHEAD, recordTooLarge } from './recordSize';
import { mayHoldCommandId } from './snapshots';

export interface AppendRequest {
  commandId: string;
  command: Command;
  /** The side named by "as", when the organizer acts for it. */
  as?: string;
  expectedVersion?: number;
}

export interface CommandOutcome {
  /** true for a new commit (201), false for the stored one returned to a retry (200). */
  created: boolean;
  version: number;
  commit: Commit;
  state: GameState;
}

/** Attempts at one group before its commands are answered 503: a game that keeps moving under a writer never makes it spin. */
const MAX_APPEND_ATTEMPTS = 8;

/** fairness-v1 §5: a retry is the same command (type, payload, actor, sent "as") under the same commandId. */
function sameCommand(stored: Commit, command: { type: string; payload: unknown }, actor: string, viaOrganizer: boolean): boolean {
  return (
    stored.command.type === command.type &&
    canonicalJson(stored.command.payload ?? null) === canonicalJson(command.payload ?? null) &&
    stored.actor === actor &&
    (stored.as === ORGANIZER) === viaOrganizer
  );
}

/** The entries of `open` still to answer, in their arrival order. */
function unanswered<E>(open: E[], pending: { entry: E }[]): E[] {
  const left = new Set(pending.map((p) => p.entry));
  return open.filter((entry) => left.has(entry));
}

interface AppendJob {
  token: string | undefined;
  request: AppendRequest;
}

/** How many waiting commands of one game one write takes, at most: fewer when their commits would pass ITEM_BUDGET together. */
export const MAX_GROUP = 16;

/** What group commit needs of the service around it. */
export interface GroupCommitDeps {
  store: EventStore;
  cache: GameCache;
  credentials: Credentials;
  signer: Signer;
  now: () => string;
  /** The only writer of its store: a cached game is current (ServiceDeps.soleWriter). */
  soleWriter: boolean;
  /** How many waiting commands of one game one write takes (MAX_GROUP, or 1). */
  maxGroup: number;
  /** The bytes one write may take (ITEM_BUDGET; smaller in tests). */
  itemBudget?: number;
  expiry?: ExpiryPolicy;
  leases?: GameLeases;
  /** The game key for a state's entropy, and the server seed (to seal): the service opens seeds. */
  gameKey(game: CachedGame, state: GameState): Promise<Uint8Array>;
  serverSeed(game: CachedGame): Promise<Buffer>;
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

  constructor(private readonly deps: GroupCommitDeps) {
    this.queue = new GroupQueue((gameId, group) => this.appendGroup(gameId, group), deps.maxGroup);
  }

  /** Decides a command on the folded game and appends its commit, in a group with the commands of the game that wait with it. */
  submit(gameId: string, token: string | undefined, request: AppendRequest): Promise<CommandOutcome> {
    return this.queue.submit(gameId, { token, request });
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
  private async appendGroup(gameId: string, group: Queued<AppendJob, CommandOutcome>[]): Promise<void> {
    let game = this.deps.cache.peek(gameId) ?? (await this.deps.cache.load(gameId));
    let open = group;
    // A state just read from the store (or a sole writer's) is current: an expectedVersion beyond it is a conflict, not a stale cache.
    let current = this.deps.soleWriter;
    for (let attempt = 1; open.length > 0; attempt++) {
      // Bounded on every path: a game that keeps moving under us answers 503, never spins.
      if (attempt > MAX_APPEND_ATTEMPTS) {
        for (const entry of open) entry.reject(new StoreUnavailable());
        return;
      }
      const plan = await this.planGroup(game, open, current);
      if (plan.stale) {
        // A command expects a version beyond this cache's: judge it, and those refused before it, against the store.
        game = await this.deps.cache.load(gameId, true);
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
          game = await this.deps.cache.load(gameId, true);
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
      const commits = await signGroup(this.deps.signer, plan.accepted, plan.state.sealed);
      let appended;
      try {
        appended = await this.deps.store.appendGroup(commits.map((c) => c.commit), commits.at(-1)!.head);
      } catch (error) {
        // The write may have landed with its answer lost: trust the store, not this cache, next time.
        this.deps.cache.forget(gameId);
        // Planned to fit, so never expected: a 413 rather than a 500 should the measure be wrong.
        const answer = error instanceof ItemTooLarge ? recordTooLarge(error.bytes, error.maxBytes) : error;
        for (const { entry } of [...plan.accepted, ...plan.duplicates, ...held, ...plan.deferred.map((entry) => ({ entry }))]) entry.reject(answer);
        return;
      }
      if (!appended.ok) {
        // Another process (or an earlier, ambiguous write) took the first seq: catch up from the store and decide again.
        game = await this.deps.cache.load(gameId, true);
        current = true;
        open = unanswered(open, [...plan.accepted, ...plan.duplicates, ...held, ...plan.deferred.map((entry) => ({ entry }))]);
        continue;
      }
      // The group landed on the state its refusals were judged on.
      for (const { entry, error } of held) entry.reject(error);
      game.state = plan.state;
      this.deps.cache.offer(gameId, game);
      await this.keepLease(before, game.state, game.secrets.tournamentId);
      this.deps.stored(gameId, commits.map((c) => c.commit));
      plan.accepted.forEach(({ entry }, i) => entry.resolve({ created: true, version: commits[i].commit.seq, commit: commits[i].commit, state: game.state }));
      for (const { entry, seq, actor, viaOrganizer } of plan.duplicates) {
        const stored = commits.find((c) => c.commit.seq === seq)!.commit;
        if (sameCommand(stored, entry.job.request.command, actor, viaOrganizer)) {
          entry.resolve({ created: false, version: game.state.version, commit: stored, state: game.state });
        } else {
          entry.reject(commandIdReused(seq));
        }
      }
      this.deps.cache.committed(game, before.version);
      // Those that did not fit in this write go in the next, decided on the state it left.
      open = plan.deferred;
      // Still bounded: each stored write answers at least one command of the group.
      attempt = 0;
    }
  }

  /**
   * Decides each waiting command in turn on a copy of the state, answering those refused or
   * already stored; `stale` when a command names a version beyond this state (the cache is
   * behind the store).
   */
  private async planGroup(game: CachedGame, entries: Queued<AppendJob, CommandOutcome>[], current: boolean) {
    // Folding leaves game.state as it is until the group is stored.
    let state: GameState = game.state;
    const accepted: { entry: Queued<AppendJob, CommandOutcome>; unsigned: UnsignedCommit; hash: string }[] = [];
    const duplicates: { entry: Queued<AppendJob, CommandOutcome>; seq: number; actor: string; viaOrganizer: boolean }[] = [];
    const planned = new Map<string, number>();
    const refused: { entry: Queued<AppendJob, CommandOutcome>; error: unknown }[] = [];
    const budget = this.deps.itemBudget ?? ITEM_BUDGET;
    let bytes = ITEM_OVERHEAD;
    for (const [index, entry] of entries.entries()) {
      const { token, request } = entry.job;
      const { commandId, command, expectedVersion } = request;
      const viaOrganizer = request.as !== undefined;
      try {
        // Judged on the state the command is decided on: a token revoked or reissued by a
        // commit before it (stored, or earlier in this group) no longer acts.
        const view: CachedGame = { ...game, state };
        const role = await this.deps.credentials.actingRole(view, token);
        if (viaOrganizer && role !== ORGANIZER) throw new ApplicationError(403, 'forbidden', 'Only the organizer token may act for a side with "as".');
        const actor = request.as ?? role;
        const inGroup = planned.get(commandId);
        if (inGroup !== undefined) {
          // The same commandId twice in one group: answered with the first once it is stored.
          duplicates.push({ entry, seq: inGroup, actor, viaOrganizer });
          continue;
        }
        const replay = await this.findRetry(view, commandId, command, actor, viaOrganizer);
        if (replay) {
          // Known from now on (found in the store for a game loaded from a snapshot).
          if (replay.seq <= game.state.version) {
            game.state = rememberCommandId(game.state, commandId, replay.seq);
            state = rememberCommandId(state, commandId, replay.seq);
          }
          entry.resolve({ created: false, version: state.version, commit: replay, state });
          continue;
        }
        authorize(state, command.type, actor, viaOrganizer);
        const expiry = this.deps.expiry;
        if (expires(expiry, state, game.secrets.tournamentId) && abandonedAt(expiry, state.lastRecordedAt) <= Date.parse(this.deps.now())) {
          throw gameAbandoned(expiry, state.lastRecordedAt);
        }
        if (expectedVersion !== undefined && expectedVersion !== state.version && !state.sealed) {
          if (!current && expectedVersion > state.version && accepted.length === 0 && duplicates.length === 0) {
            return { stale: true as const, open: entries.slice(index), accepted, duplicates, refused, state, deferred: [] };
          }
          throw versionConflict(state.version);
        }
        // A command too large on its own is refused before any die is drawn.
        const own = ITEM_OVERHEAD + commandShare(commandId, command);
        if (own > budget) throw recordTooLarge(own, budget);
        const seq = state.version + 1;
        const dice = new FairnessDice(await this.deps.gameKey(game, state), seq);
        const sealing = command.type === 'Seal';
        const events = decideGame(state, command, { actor, dice, now: this.deps.now(), serverSeed: sealing ? (await this.deps.serverSeed(game)).toString('hex') : undefined });
        const draft: CommitDraft = {
          gameId: state.gameId,
          seq,
          prevHash: state.lastHash,
          commandId,
          actor,
          viaOrganizer,
          command,
          events,
          dice: dice.drawn,
          recordedAt: this.deps.now(),
          kid: this.deps.signer.kid,
        };
        const { unsigned, hash } = hashedCommit(draft);
        const share = commitShare(unsigned, hash);
        if (ITEM_OVERHEAD + share > budget) throw recordTooLarge(ITEM_OVERHEAD + share, budget);
        if (bytes + share > budget) {
          // The group's item is full: this command and those after it wait for the next write (their dice are drawn again there, the same for the same seq).
          return { stale: false as const, open: [], accepted, duplicates, refused, state, deferred: entries.slice(index) };
        }
        bytes += share;
        state = evolveGame(state, { ...unsigned, hash, signature: '' });
        planned.set(commandId, seq);
        accepted.push({ entry, unsigned, hash });
      } catch (error) {
        refused.push({ entry, error });
      }
    }
    return { stale: false as const, open: [], accepted, duplicates, refused, state, deferred: [] as Queued<AppendJob, CommandOutcome>[] };
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
      else if (rearms(before.lastRecordedAt, after.lastRecordedAt)) await leases!.arm(after.gameId, leaseEnd(expiry, after.lastRecordedAt));
    } catch {
      // Logged where the store's calls are observed (functions/lambda/powertools.ts); the commit is stored.
    }
  }

  /** fairness-v1 §5: the same commandId returns the stored commit; a different command under it is refused. */
  private async findRetry(
    game: CachedGame,
    commandId: string,
    command: { type: string; payload: unknown },
    actor: string,
    viaOrganizer: boolean,
  ): Promise<Commit | undefined> {
    const seq = await this.storedSeq(game, commandId);
    if (seq === undefined) return undefined;
    const [stored] = await this.deps.store.read(game.state.gameId, seq - 1, 1);
    if (!sameCommand(stored, command, actor, viaOrganizer)) throw commandIdReused(seq);
    return stored;
  }

  /**
   * The seq stored for a commandId: from the folded state, or, for a game loaded from a
   * snapshot, from the store when the snapshot's hashes say it may be older (snapshots.ts).
   */
  private async storedSeq(game: CachedGame, commandId: string): Promise<number | undefined> {
    const seq = game.state.commandIds.get(commandId);
    if (seq !== undefined || !game.olderCommandIds || !mayHoldCommandId(game.olderCommandIds, commandId)) return seq;
    return this.deps.store.findCommandId(game.state.gameId, commandId);
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
