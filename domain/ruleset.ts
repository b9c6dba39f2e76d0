import type { z } from 'zod';
import type { DiceSource } from './dice';

export const ORGANIZER = 'organizer';

/** Who a command acts as: one of the game's sides, or the organizer. */
export type Role = string;

export interface DomainEvent {
  type: string;
  data: Record<string, unknown>;
}

export interface Command {
  type: string;
  payload: unknown;
}

export interface DecideContext {
  actor: Role;
  dice: DiceSource;
  /** ISO-8601 time of the commit, given by the caller (the domain has no clock). */
  now: string;
}

/** Who may ever send a command; finer checks (whose turn) are the decider's, as 422s. */
export interface Who {
  /** `all` = every side; or the names of the sides, as the ruleset's default sides call them. */
  sides: 'all' | 'none' | readonly string[];
  organizer: boolean;
}

export interface CommandSpec {
  schema: z.ZodType;
  who: Who;
  description: string;
}

export interface ProcedureOutcome {
  result: unknown;
  breakdown: unknown;
}

export interface ProcedureSpec<O = unknown> {
  input: z.ZodType;
  description: string;
  /** Checks the rules first (throwing RuleViolation before any die), then draws dice. */
  evaluate(input: any, options: O, dice: DiceSource): ProcedureOutcome;
}

/**
 * A game system. Tables are typed constants inside its folder, or come as data in
 * `options` where a game brings its own; procedures and commands share the same
 * resolution functions, so /evaluate and a game always agree.
 */
export interface Ruleset<S = any, O = any> {
  id: string;
  title: string;
  description: string;
  /**
   * The version of the state `evolve` folds to (default 1): raise it whenever the state's shape
   * or the way events fold into it changes, so that stored snapshots of the old state are
   * ignored and folded again from the commits.
   */
  stateVersion?: number;
  /**
   * Options a new game gets unless its request sets them, written into the creation request
   * that commit 1 records (e.g. the current `rulesVersion`): a game recorded without them was
   * created before they existed, and replays with the rules it was played under.
   */
  newGameOptions?: Readonly<Record<string, unknown>>;
  /** Options a game may set at creation; parsing applies the defaults. Commit 1 of every recorded game replays with it. */
  options: z.ZodType<O>;
  /**
   * What a new game's options must also meet, when the service came to refuse creations it
   * once recorded (a `table` game with no table): checked at creation only, so the games
   * created before still replay with `options`; the catalogue and the OpenAPI document show it.
   */
  creationOptions?: z.ZodType;
  /** How options rename the sides, in words, for the catalogue. */
  sidesNote?: string;
  sides(options: O): readonly string[];
  commands: Record<string, CommandSpec>;
  procedures: Record<string, ProcedureSpec<O>>;
  /** Schema of `view(state)`, published in the catalogue. */
  view: z.ZodType;
  /**
   * Schema of the `data` of each event type `decide` can emit, by type: published in the
   * OpenAPI document, and checked against the events the rulesets' test games emit.
   */
  events?: Readonly<Record<string, z.ZodType>>;
  initialState(options: O, sides: readonly string[]): S;
  /**
   * Which of its commits an organizer's Void may take back (docs/voids-and-rulings.md). 'latest' (the
   * default): only the last commit whose events were the ruleset's, and the game goes back to
   * the rules state from before it (GameState.undo). 'any': any of its commits, and the
   * rules state stays as it is — for rulesets whose state decides nothing (dice, table).
   */
  voiding?: 'latest' | 'any';
  /** Throws RuleViolation (422) when the rules refuse the command. */
  decide(state: S, command: Command, ctx: DecideContext): DomainEvent[];
  /** Never rolls, never fails. */
  evolve(state: S, event: DomainEvent): S;
  /**
   * The side whose move it is, by the ruleset's own turn and phase model; null when the game
   * waits on no side in particular. The turn clock charges the time between commits to it.
   */
  toMove?(state: S): string | null;
  present(state: S): unknown;
  /** The `<summary>` of a text line for one of this ruleset's commits. */
  summarize(command: Command, events: readonly DomainEvent[]): string;
  /**
   * For a commit that records several results at once (dice: a Roll of several labelled
   * rolls), one summary per result, each its own text line; absent or undefined: one line, `summarize`.
   */
  summaryLines?(command: Command, events: readonly DomainEvent[]): string[] | undefined;
  /**
   * What came of one of this ruleset's commits, short enough for the timeline's Result column
   * and a push notification: the table's letter with its losses and retreats ("A1/D1, retreat
   * 2"), "hit, hit, flag", a dice total; '' for a commit that resolves nothing (a turn begins).
   */
  resultText(command: Command, events: readonly DomainEvent[]): string;
}

/**
 * The result text of any commit of a game of this ruleset: '' for the game's own commands
 * (CreateGame, Seal, …), for a ruleset this version does not know, and for a commit whose
 * events are not as the ruleset's event schemas describe them (a tampered export): a result
 * text costs nothing but itself.
 */
export function resultTextOf(ruleset: Ruleset | undefined, command: Command, events: readonly DomainEvent[]): string {
  if (!ruleset || !Object.hasOwn(ruleset.commands, command.type)) return '';
  const readable = (event: DomainEvent) => {
    const schema = ruleset.events && Object.hasOwn(ruleset.events, event.type) ? ruleset.events[event.type] : undefined;
    return !schema || schema.safeParse(event.data).success;
  };
  if (!events.every(readable)) return '';
  try {
    return ruleset.resultText(command, events);
  } catch {
    return '';
  }
}

/** The role-to-default-side mapping lets renamed sides (dice `sides` option) keep `who`. */
export function mayEverSend(who: Who, actor: Role, sides: readonly string[]): boolean {
  if (actor === ORGANIZER) return who.organizer;
  if (!sides.includes(actor)) return false;
  if (who.sides === 'all') return true;
  if (who.sides === 'none') return false;
  return who.sides.includes(actor);
}
