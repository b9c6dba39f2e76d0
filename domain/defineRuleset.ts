import type { z } from 'zod';
import { RuleViolation } from './errors';
import type { DiceSource } from './dice';
import type { CommandSpec, DecideContext, ProcedureOutcome, Ruleset } from './ruleset';

type CommandSpecs = Readonly<Record<string, CommandSpec>>;
type EventSchemas = Readonly<Record<string, z.ZodType>>;
type ProcedureInputs = Readonly<Record<string, z.ZodType>>;

/** Each procedure gets its input as its `input` schema parsed it. */
export type TypedProcedures<O, P extends ProcedureInputs> = {
  [N in keyof P]: {
    input: P[N];
    description: string;
    /** Checks the rules first (throwing RuleViolation before any die), then draws dice. */
    evaluate(input: z.infer<P[N]>, options: O, dice: DiceSource): ProcedureOutcome;
  };
};

/** Each command of a ruleset, as its schema parses it: `{ type: 'Roll'; payload: Roll }` | … */
export type CommandOf<C extends CommandSpecs> = {
  [T in keyof C & string]: { type: T; payload: z.infer<C[T]['schema']> };
}[keyof C & string];

/** Each event a ruleset records, with the data its schema in `events` describes. */
export type EventOf<E extends EventSchemas> = {
  [T in keyof E & string]: { type: T; data: z.infer<E[T]> };
}[keyof E & string];

/** One of the events of E by its type. */
export type EventData<E extends EventSchemas, T extends keyof E & string> = z.infer<E[T]>;

/**
 * A ruleset whose commands and events are typed by its own schemas: `decide` gets a command
 * its schema has parsed and may only return the events `events` describes; `evolve`,
 * `summarize` and `resultText` read them with the types of those schemas, and each procedure its input.
 */
export interface RulesetDefinition<S, O, C extends CommandSpecs, E extends EventSchemas, P extends ProcedureInputs>
  extends Omit<Ruleset<S, O>, 'commands' | 'events' | 'decide' | 'evolve' | 'summarize' | 'summaryLines' | 'resultText' | 'procedures'> {
  commands: C;
  procedures: TypedProcedures<O, P>;
  events: E;
  /** Throws RuleViolation (422) when the rules refuse the command. */
  decide(state: S, command: CommandOf<C>, ctx: DecideContext): EventOf<E>[];
  /** Never rolls, never fails. */
  evolve(state: S, event: EventOf<E>): S;
  summarize(command: CommandOf<C>, events: readonly EventOf<E>[]): string;
  summaryLines?(command: CommandOf<C>, events: readonly EventOf<E>[]): string[] | undefined;
  /** What came of the commit, in a few words: Ruleset's `resultText`. */
  resultText(command: CommandOf<C>, events: readonly EventOf<E>[]): string;
}

/**
 * The ruleset as the game sees it (`Ruleset`): the game only hands `decide` a command whose
 * payload the command's schema parsed, `evolve` and `summarize` the events `decide`
 * recorded, and a procedure the input its schema parsed, so the typed functions can stand
 * for the untyped ones.
 */
export function defineRuleset<S, O, const C extends CommandSpecs, const E extends EventSchemas, P extends ProcedureInputs>(
  definition: RulesetDefinition<S, O, C, E, P>,
): Ruleset<S, O> {
  return definition as unknown as Ruleset<S, O>;
}

/**
 * The end of an exhaustive switch over a ruleset's events: the compiler refuses it while an
 * event type is left unhandled. A stored event of a type this version does not know (never
 * recorded by Arbiter) changes nothing, as before.
 */
export function unknownEvent<S>(_event: never, state: S): S {
  return state;
}

/**
 * The end of an exhaustive switch over a ruleset's commands: the compiler refuses it while a
 * command type is left unhandled. The game never sends another type; a direct call gets a 422.
 */
export function notACommand(command: never, game: string, rule: string): never {
  throw new RuleViolation(`${typeOfUnknown(command)} is not a ${game} command.`, rule);
}

/** The type of a command or event an exhaustive switch left out: one this version does not know. */
export function typeOfUnknown(commandOrEvent: never): string {
  return String((commandOrEvent as { type: unknown }).type);
}

/** The data of the first event of this type among a commit's events, typed by its schema. */
export function firstData<V extends { type: string; data: unknown }, T extends V['type']>(events: readonly V[], type: T): Extract<V, { type: T }>['data'] | undefined {
  return events.find((event): event is Extract<V, { type: T }> => event.type === type)?.data;
}
