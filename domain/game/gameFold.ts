import type { BeaconChain } from '../beacon/chain';
import type { EntropyEntry } from '../fairness/gameKey';
import type { Commit, RecordedCommand } from '../fairness/hashChain';
import type { Ruleset } from '../ruleset';
import { recordedTimeControl, startClock, tickClock, type GameClock, type TimeControl } from './clock';
import { CommandIdIndex, type CommandIds } from './commandIds';
import type { CreateGameBody } from './gameCommands';

export interface GameState {
  gameId: string;
  ruleset: Ruleset;
  title: string;
  sides: readonly string[];
  options: unknown;
  public: boolean;
  commitment: string;
  version: number;
  lastHash: string;
  /** When the last commit was recorded (ISO-8601): a game's age is read from its chain. */
  lastRecordedAt: string;
  entropy: EntropyEntry[];
  /** The time control commit 1 records (docs/clocks.md); absent: none. */
  timeControl?: TimeControl;
  /** Whose move it is and the time each side used, folded from the commits' recordedAt (clock.ts). */
  clock: GameClock;
  /** A die was rolled: entropy is locked (fairness-v1 §2). */
  diceRolled: boolean;
  sealed: boolean;
  serverSeed?: string;
  /**
   * Which bearer token each role holds now: absent, the one issued at creation; a token
   * id, the one a TokenReissued named; null, revoked. Keyed by role in a Map: sides are
   * names players chose.
   */
  credentials: ReadonlyMap<string, string | null>;
  /** commandId → seq, so that a retried command finds its commit. */
  commandIds: CommandIds;
  rules: unknown;
  /** A beacon game's chain (beacon.md §1); absent in other games. */
  beacon?: BeaconChain;
  /** The roll that waits for its beacon (beacon.md §2.2): nothing else is appended until its reveal. */
  pending?: PendingRoll;
  /** Voided commits (docs/voids-and-rulings.md): voided seq → the Void's seq and reason. Keyed in a Map, as every seq is. */
  voided: ReadonlyMap<number, VoidMark>;
  /** The seqs of the commits whose events were the ruleset's, as ranges [first, last], in order: what a Void may take back. */
  rulesCommits: readonly RulesRange[];
  /**
   * A ruleset of voiding 'latest': the last commit whose events were the ruleset's and the
   * rules state from before it, which a Void of that commit restores; gone once it is voided.
   */
  undo?: { seq: number; rules: unknown };
  /** How many rulings the organizer recorded. */
  rulings: number;
}

export interface VoidMark {
  /** The seq of the Void. */
  by: number;
  reason: string;
}

export type RulesRange = readonly [first: number, last: number];

/** Whether commit `seq` recorded the ruleset's events. */
export function isRulesCommit(state: Pick<GameState, 'rulesCommits'>, seq: number): boolean {
  return state.rulesCommits.some(([first, last]) => seq >= first && seq <= last);
}

/** The seq of the last commit whose events were the ruleset's; 0 when there is none. */
export const lastRulesCommit = (state: Pick<GameState, 'rulesCommits'>): number => state.rulesCommits.at(-1)?.[1] ?? 0;

function withRulesCommit(ranges: readonly RulesRange[], seq: number): RulesRange[] {
  const last = ranges.at(-1);
  return last && last[1] === seq - 1 ? [...ranges.slice(0, -1), [last[0], seq]] : [...ranges, [seq, seq]];
}

/** A pending commit, as its reveal needs it: the command decided again, as its sender sent it. */
export interface PendingRoll {
  seq: number;
  commandId: string;
  actor: string;
  /** Sent by the organizer for the side `actor`. */
  viaOrganizer: boolean;
  command: RecordedCommand;
  recordedAt: string;
  round: number;
  roundAt: string;
}

/** The ruleset of an id, when it is at hand: domain/rulesets/registry.ts has them all, the service loads each on demand. */
export type RulesetLookup = (id: string) => Ruleset | undefined;

/**
 * Folds one stored commit into the game. Commit 1 must be the creation, of a ruleset
 * `rulesetOf` knows; the caller (store or verifier) has already checked the chain. The state
 * given is left as it was: the next one shares no mutable part with it.
 */
export function foldCommit(state: GameState | undefined, commit: Commit, rulesetOf: RulesetLookup): GameState {
  if (!state) return createdState(commit, rulesetOf);
  const next: GameState = {
    ...state,
    version: commit.seq,
    lastHash: commit.hash,
    lastRecordedAt: commit.recordedAt,
    diceRolled: state.diceRolled || commit.dice.length > 0,
    commandIds: CommandIdIndex.from(state.commandIds).with(commit.commandId, commit.seq),
  };
  // beacon.md §2.3: a reveal resolves the pending roll; its events are the ruleset's.
  if (commit.command.type === 'RevealBeacon') next.pending = undefined;
  let rulesDecided = false;
  for (const event of commit.events) {
    switch (event.type) {
      case 'BeaconRollPending':
        next.pending = {
          seq: commit.seq,
          commandId: commit.commandId,
          actor: commit.actor,
          viaOrganizer: commit.as === 'organizer',
          command: commit.command,
          recordedAt: commit.recordedAt,
          round: Number(event.data.round),
          roundAt: String(event.data.roundAt),
        };
        // Entropy is locked from the first pending roll, as from the first die (beacon.md §2.2).
        next.diceRolled = true;
        break;
      case 'BeaconRollRefused':
        break;
      case 'EntropyContributed':
        next.entropy = [...next.entropy, [String(event.data.by), String(event.data.entropy)]];
        break;
      case 'GameSealed':
        next.sealed = true;
        next.serverSeed = String(event.data.serverSeed);
        break;
      case 'TokenReissued':
        next.credentials = new Map(next.credentials).set(String(event.data.role), String(event.data.tokenId));
        break;
      case 'TokenRevoked':
        next.credentials = new Map(next.credentials).set(String(event.data.role), null);
        break;
      case 'CommitVoided': {
        const seq = Number(event.data.seq);
        next.voided = new Map(next.voided).set(seq, { by: commit.seq, reason: String(event.data.reason) });
        if (next.undo?.seq === seq) {
          next.rules = next.undo.rules;
          next.undo = undefined;
        }
        break;
      }
      case 'RulingRecorded':
        next.rulings += 1;
        break;
      default:
        // A turn's hand-over (PassTurn of dice and table) decides nothing a Void could take back: voiding it would leave the move where it is.
        if (!rulesDecided && event.type !== 'TurnPassed') {
          rulesDecided = true;
          next.rulesCommits = withRulesCommit(next.rulesCommits, commit.seq);
          next.undo = (state.ruleset.voiding ?? 'latest') === 'latest' ? { seq: commit.seq, rules: state.rules } : undefined;
        }
        next.rules = state.ruleset.evolve(next.rules, event);
    }
  }
  // beacon.md §2.2: while a roll waits for its round, the wait is the server's, not the roller's.
  next.clock = tickClock(state.clock, state.lastRecordedAt, commit.recordedAt, sideToMove(next), !state.pending);
  return next;
}

/** The side whose move it is by the ruleset's turn model; nobody once the game is sealed. */
const sideToMove = (state: Pick<GameState, 'ruleset' | 'rules' | 'sealed'>): string | null => (state.sealed ? null : (state.ruleset.toMove?.(state.rules) ?? null));

function createdState(commit: Commit, rulesetOf: RulesetLookup): GameState {
  const created = commit.events[0];
  if (commit.seq !== 1 || created?.type !== 'GameCreated') {
    throw new Error(`commit 1 must be GameCreated, found ${created?.type ?? 'nothing'} at seq ${commit.seq}`);
  }
  const data = created.data as { ruleset: string; sides: string[]; options: unknown; commitment: string; beacon?: BeaconChain };
  const ruleset = rulesetOf(data.ruleset);
  if (!ruleset) throw new Error(`unknown ruleset ${data.ruleset}`);
  const body = commit.command.payload as CreateGameBody;
  const rules = ruleset.initialState(data.options, data.sides);
  const timeControl = recordedTimeControl(body);
  return {
    gameId: commit.gameId,
    ruleset,
    title: body.title ?? '',
    sides: data.sides,
    options: data.options,
    public: body.public === true,
    commitment: data.commitment,
    version: 1,
    lastHash: commit.hash,
    lastRecordedAt: commit.recordedAt,
    entropy: [],
    diceRolled: commit.dice.length > 0,
    sealed: false,
    credentials: new Map(),
    commandIds: CommandIdIndex.of([[commit.commandId, 1]]),
    rules,
    voided: new Map(),
    rulesCommits: [],
    rulings: 0,
    ...(timeControl ? { timeControl } : {}),
    clock: startClock(data.sides, sideToMove({ ruleset, rules, sealed: false }), commit.recordedAt),
    ...(data.beacon ? { beacon: data.beacon } : {}),
  };
}

/** The game, knowing the seq of a commandId found in the store (older than a snapshot's recent ones). */
export function rememberCommandId(state: GameState, commandId: string, seq: number): GameState {
  return { ...state, commandIds: CommandIdIndex.from(state.commandIds).with(commandId, seq) };
}
