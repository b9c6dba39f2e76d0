import { canonicalJson } from '../../domain/canonicalJson';
import { FairnessDice } from '../../domain/dice';
import type { Commit, UnsignedCommit } from '../../domain/fairness/hashChain';
import { hashedCommit, type CommitDraft } from '../../domain/game/buildCommit';
import { authorize, decideGame } from '../../domain/game/decideGame';
import { evolveGame, rememberCommandId, type GameState } from '../../domain/game/gameState';
import { ORGANIZER, type Command } from '../../domain/ruleset';
import type { CommitLog } from '../ports/eventStore';
import type { Signer } from '../ports/signer';
import { ITEM_BUDGET } from '../store/itemSize';
import { stillActs, type ActingToken } from './credentials';
import { commandIdReused, unauthenticated, versionConflict } from './errors';
import type { CachedGame, GameRepository } from './gameRepository';
import { abandonedAt, expires, gameAbandoned, type ExpiryPolicy } from './gameExpiry';
import type { Queued } from './groupQueue';
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

/** A command waiting for its group: its token already checked (once, when it was sent). */
export interface AppendJob {
  acting: ActingToken;
  request: AppendRequest;
}

export type Entry = Queued<AppendJob, CommandOutcome>;

/** What deciding a group needs: the game's seeds (its dice, its sealing), the store's log (retries), the signer's key id. */
export interface GroupPlannerDeps {
  store: Pick<CommitLog, 'read' | 'findCommandId'>;
  games: GameRepository;
  signer: Signer;
  now: () => string;
  /** The bytes one write may take (ITEM_BUDGET; smaller in tests). */
  itemBudget?: number;
  expiry?: ExpiryPolicy;
  gameKey(game: CachedGame, state: GameState): Promise<Uint8Array>;
  serverSeed(game: CachedGame): Promise<Buffer>;
}

export /** fairness-v1 §5: a retry is the same command (type, payload, actor, sent "as") under the same commandId. */
function sameCommand(stored: Commit, command: { type: string; payload: unknown }, actor: string, viaOrganizer: boolean): boolean {
  return (
    stored.command.type === command.type &&
    canonicalJson(stored.command.payload ?? null) === canonicalJson(command.payload ?? null) &&
    stored.actor === actor &&
    (stored.as === ORGANIZER) === viaOrganizer
  );
}

/** Deciding a group (docs/append-protocol.md): each waiting command in turn, on the state the ones before it left. */
export class GroupPlanner {
  constructor(private readonly deps: GroupPlannerDeps) {}

  /**
   * Decides each waiting command in turn on a copy of the state, answering those refused or
   * already stored; `stale` when a command names a version beyond this state (the cache is
   * behind the store).
   */
  async plan(game: CachedGame, entries: Entry[], current: boolean) {
    // Folding leaves game.state as it is until the group is stored.
    let state: GameState = game.state;
    const accepted: { entry: Entry; unsigned: UnsignedCommit; hash: string }[] = [];
    const duplicates: { entry: Entry; seq: number; actor: string; viaOrganizer: boolean }[] = [];
    const planned = new Map<string, number>();
    const refused: { entry: Entry; error: unknown }[] = [];
    const budget = this.deps.itemBudget ?? ITEM_BUDGET;
    let bytes = ITEM_OVERHEAD;
    for (const [index, entry] of entries.entries()) {
      const { acting, request } = entry.job;
      const { commandId, command, expectedVersion } = request;
      const viaOrganizer = request.as !== undefined;
      try {
        // Judged on the state the command is decided on: a token revoked or reissued by a
        // commit before it (stored, or earlier in this group) no longer acts.
        if (!stillActs(acting, state)) throw unauthenticated();
        const { role } = acting;
        const view: CachedGame = { ...game, state };
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
            this.deps.games.knowCommandId(game, commandId, replay.seq);
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
    return { stale: false as const, open: [], accepted, duplicates, refused, state, deferred: [] as Entry[] };
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
