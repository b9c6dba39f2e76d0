import { canonicalJson } from '../../domain/canonicalJson';
import { beaconDice } from '../../domain/beacon/randomness';
import { FairnessDice } from '../../domain/dice';
import type { Commit, UnsignedCommit } from '../../domain/fairness/hashChain';
import { hashedCommit, type CommitDraft } from '../../domain/game/buildCommit';
import { decideAcceptance, decideReveal, RevealMismatch, type RevealPayload } from '../../domain/game/beaconRolls';
import { authorize, decideGame } from '../../domain/game/decideGame';
import { revealCommandId, SERVER_ACTOR } from '../../domain/game/gameCommands';
import { roundAtIso, roundTimeMs } from '../../domain/beacon/chain';
import { BeaconNotPublished } from '../ports/beaconSource';
import { rememberCommandId, type GameState } from '../../domain/game/gameFold';
import { evolveGame } from './rulesetLoader';
import { ORGANIZER, type Command } from '../../domain/ruleset';
import type { CommitLog } from '../ports/eventStore';
import type { PendingReveals } from '../ports/pendingReveals';
import type { Signer } from '../ports/signer';
import { beaconsUnavailable } from './beaconOffer';
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
  /** The commit is pending (beacon.md §2.1): the round it waits for (202 while `reveal` is absent). */
  beacon?: { chain: string; round: number; roundAt: string };
  /** A retry of a pending commit already revealed: its reveal, the commit after it. */
  reveal?: Commit;
}

/** A command waiting for its group: its token already checked (once, when it was sent). */
export interface CommandJob {
  acting: ActingToken;
  request: AppendRequest;
}

/** The server's reveal of a pending commit with its beacon (beacon.md §2.3). */
export interface RevealJob {
  reveal: RevealPayload;
}

export type AppendJob = CommandJob | RevealJob;

const isReveal = (job: AppendJob): job is RevealJob => 'reveal' in job;

/** The beacon a pending commit waits for, as the 202 names it; undefined for any other commit. */
export function pendingBeacon(state: GameState, commit: Commit): CommandOutcome['beacon'] {
  const first = commit.events[0];
  if (first?.type !== 'BeaconRollPending' || !state.beacon) return undefined;
  return { chain: state.beacon.chain, round: Number(first.data.round), roundAt: String(first.data.roundAt) };
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
  /** Where beacon games' pending commits wait for their reveal; none: this service cannot roll in a beacon game. */
  pendingReveals?: PendingReveals;
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
      if (isReveal(entry.job)) {
        const { reveal } = entry.job;
        const commandId = revealCommandId(reveal.pending);
        try {
          const inGroup = planned.get(commandId);
          if (inGroup !== undefined) {
            duplicates.push({ entry, seq: inGroup, actor: SERVER_ACTOR, viaOrganizer: false });
            continue;
          }
          const decided = await this.revealCommit({ ...game, state }, reveal);
          if ('stored' in decided) {
            entry.resolve({ created: false, version: state.version, commit: decided.stored, state });
            continue;
          }
          const { unsigned, hash } = hashedCommit(decided.draft);
          const share = commitShare(unsigned, hash);
          if (bytes + share > budget && accepted.length > 0) {
            return { stale: false as const, open: [], accepted, duplicates, refused, state, deferred: entries.slice(index) };
          }
          bytes += share;
          state = evolveGame(state, { ...unsigned, hash, signature: '' });
          planned.set(commandId, unsigned.seq);
          accepted.push({ entry, unsigned, hash });
        } catch (error) {
          refused.push({ entry, error });
        }
        continue;
      }
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
          entry.resolve({ created: false, version: state.version, commit: replay, state, ...(await this.revealOf(state, replay)) });
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
        // One time for the rules and the commit: in a beacon game it also names the round the roll waits for.
        const recordedAt = this.deps.now();
        const sealing = command.type === 'Seal';
        const serverSeed = sealing ? (await this.deps.serverSeed(game)).toString('hex') : undefined;
        let dice: FairnessDice | undefined;
        let events;
        if (state.beacon) {
          // beacon.md §2.1: no die is drawn at acceptance; a command that reaches one is pending.
          events = decideAcceptance(state, command, { actor, now: recordedAt, serverSeed }, recordedAt);
          if (events[0]?.type === 'BeaconRollPending' && !this.deps.pendingReveals) throw beaconsUnavailable();
        } else {
          dice = new FairnessDice(await this.deps.gameKey(game, state), seq);
          events = decideGame(state, command, { actor, dice, now: recordedAt, serverSeed });
        }
        const draft: CommitDraft = {
          gameId: state.gameId,
          seq,
          prevHash: state.lastHash,
          commandId,
          actor,
          viaOrganizer,
          command,
          events,
          dice: dice?.drawn ?? [],
          recordedAt,
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

  /**
   * beacon.md §2.3: the reveal commit of a pending commit — the pending command decided again
   * with the beacon's dice (§3), by the server — or the reveal already stored for it. A reveal
   * that does not match the game's pending commit is refused (RevealMismatch).
   */
  private async revealCommit(game: CachedGame, reveal: RevealPayload): Promise<{ stored: Commit } | { draft: CommitDraft }> {
    const { state } = game;
    const commandId = revealCommandId(reveal.pending);
    const storedSeq = await this.storedSeq(game, commandId);
    if (storedSeq !== undefined) {
      const [stored] = await this.deps.store.read(state.gameId, storedSeq - 1, 1);
      return { stored };
    }
    if (!state.beacon) throw new RevealMismatch(`game ${state.gameId} is no beacon game`);
    // decideReveal refuses a reveal that does not match the pending commit (RevealMismatch).
    const dice = beaconDice(await this.deps.gameKey(game, state), state.beacon, reveal.round, reveal.signature, reveal.pending);
    const events = decideReveal(state, reveal, dice);
    // A reveal recorded before its round's time could not have had the beacon: every verifier fails it (beacon.md §5).
    const recordedAt = this.deps.now();
    if (Date.parse(recordedAt) < roundTimeMs(state.beacon, reveal.round)) {
      throw new BeaconNotPublished(`round ${reveal.round} is not due until ${roundAtIso(state.beacon, reveal.round)} by this server's clock`);
    }
    const command: Command = { type: 'RevealBeacon', payload: { ...reveal } };
    return {
      draft: {
        gameId: state.gameId,
        seq: state.version + 1,
        prevHash: state.lastHash,
        commandId,
        actor: SERVER_ACTOR,
        viaOrganizer: false,
        command,
        events,
        dice: dice.drawn,
        recordedAt,
        kid: this.deps.signer.kid,
      },
    };
  }

  /** A retried pending commit: the round it waits for, and its reveal once stored (always the commit after it). */
  private async revealOf(state: GameState, commit: Commit): Promise<Pick<CommandOutcome, 'beacon' | 'reveal'>> {
    const beacon = pendingBeacon(state, commit);
    if (!beacon) return {};
    const [next] = await this.deps.store.read(state.gameId, commit.seq, 1);
    return next?.commandId === revealCommandId(commit.seq) ? { beacon, reveal: next } : { beacon };
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
