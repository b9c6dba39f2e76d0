import fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { FairnessDice, FirstDieDrawn, ProbeDice, type DiceSource } from '../../../domain/dice';
import { DomainError } from '../../../domain/errors';
import { mayEverSend, type DomainEvent, type Ruleset } from '../../../domain/ruleset';

/**
 * beacon.md §4: acceptance decides a command with probe dice, which stop it at its first die;
 * the reveal decides it again with the beacon's dice. This checks, command by command, that
 * both agree: a refusal comes before any die, and a command that reaches a die is accepted.
 */

export interface Step {
  actor: string;
  type: string;
  payload: unknown;
}

/** Choices a walk makes against the state it is in, drawn through fast-check (so that a failure shrinks). */
export interface Draw {
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** true with probability p (0 to 1) */
  chance(p: number): boolean;
  /** a value of an arbitrary; `builder` must be the same function each call (fc.gen caches by it) */
  from<T>(builder: () => fc.Arbitrary<T>): T;
}

export function drawWith(g: fc.GeneratorValue): Draw {
  return {
    int: (min, max) => g(fc.integer, { min, max }),
    pick: (items) => items[g(fc.nat, { max: items.length - 1 })],
    chance: (p) => g(fc.nat, { max: 99 }) < p * 100,
    from: (builder) => g(builder),
  };
}

/** How a ruleset's games are walked: a new game's options, and each next command drawn against the state. */
export interface Walk<M = unknown> {
  game: fc.Arbitrary<{ options: Record<string, unknown>; material: M }>;
  next(state: any, draw: Draw, material: M, seq: number, sides: readonly string[]): Step;
  /** The commands that roll dice: every one must reach a die in the runs. */
  rolling: readonly string[];
}

export type Outcome = 'not a command' | 'schema' | 'forbidden' | 'refused before a die' | 'accepted, no die' | 'reached a die';

const NOW = '2026-11-27T06:00:00.000Z';

type Attempt = { ok: true; events: DomainEvent[] } | { ok: false; error: unknown };
function attempt(run: () => DomainEvent[]): Attempt {
  try {
    return { ok: true, events: run() };
  } catch (error) {
    return { ok: false, error };
  }
}

const said = (error: unknown) => (error instanceof Error ? `${error.name}: ${error.message}` : String(error));

/**
 * Decides one command as the service would (its schema, who may send it, then decide), once
 * with probe dice and once with `dice`, and throws when they disagree: a refusal after the
 * first die, a die drawn where the probe saw none (something caught its stop), a different
 * refusal, or different events.
 */
export function decideBothWays(ruleset: Ruleset, sides: readonly string[], state: unknown, step: Step, dice: () => DiceSource): { outcome: Outcome; events: DomainEvent[] } {
  if (!Object.hasOwn(ruleset.commands, step.type)) return { outcome: 'not a command', events: [] };
  const spec = ruleset.commands[step.type];
  const parsed = spec.schema.safeParse(step.payload ?? {});
  if (!parsed.success) return { outcome: 'schema', events: [] };
  if (!mayEverSend(spec.who, step.actor, sides)) return { outcome: 'forbidden', events: [] };
  const command = { type: step.type, payload: parsed.data };
  const where = `${ruleset.id} ${step.type} by ${step.actor}: ${JSON.stringify(step.payload)}`;
  const probe = attempt(() => ruleset.decide(state, command, { actor: step.actor, dice: new ProbeDice(), now: NOW }));
  const real = dice();
  const rolled = attempt(() => ruleset.decide(state, command, { actor: step.actor, dice: real, now: NOW }));

  if (!probe.ok && probe.error instanceof FirstDieDrawn) {
    if (!rolled.ok && rolled.error instanceof DomainError) {
      throw new Error(`refused after its first die (${real.drawn.length} drawn): ${said(rolled.error)} — ${where}`);
    }
    if (!rolled.ok) throw rolled.error;
    if (real.drawn.length === 0) throw new Error(`the probe stopped at a first die, yet the dice drew none — ${where}`);
    return { outcome: 'reached a die', events: rolled.events };
  }
  if (!probe.ok && !(probe.error instanceof DomainError)) throw probe.error;
  if (real.drawn.length > 0) {
    const probeSaw = probe.ok ? 'drew no die' : `refused it (${said(probe.error)})`;
    throw new Error(`the dice drew ${real.drawn.length} where the probe ${probeSaw}: something caught the probe's first die — ${where}`);
  }
  if (!probe.ok) {
    const refusal = probe.error as DomainError;
    const same = !rolled.ok && rolled.error instanceof DomainError && rolled.error.code === refusal.code && rolled.error.message === refusal.message;
    if (!same) throw new Error(`the probe was refused (${said(refusal)}) but the dice gave ${rolled.ok ? 'events' : said(rolled.error)} — ${where}`);
    return { outcome: 'refused before a die', events: [] };
  }
  if (!rolled.ok) throw new Error(`the probe was accepted with no die, but the dice gave ${said(rolled.error)} — ${where}`);
  if (!isDeepStrictEqual(rolled.events, probe.events)) throw new Error(`the probe and the dice decided different events with no die drawn — ${where}`);
  return { outcome: 'accepted, no die', events: rolled.events };
}

/** Outcomes by command type, over every walk of a ruleset. */
export class Tally {
  private readonly counts = new Map<string, number>();
  add(type: string, outcome: Outcome): void {
    const key = `${type}\u0000${outcome}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
  }
  of(outcome: Outcome, type?: string): number {
    let total = 0;
    for (const [key, n] of this.counts) {
      const [t, o] = key.split('\u0000');
      if (o === outcome && (type === undefined || t === type)) total += n;
    }
    return total;
  }
}

/** One game: `steps` commands from the walk, each decided both ways, the accepted ones folded. */
export function walkGame(ruleset: Ruleset, walk: Walk, game: { options: Record<string, unknown>; material: unknown }, gameKey: Uint8Array, draw: Draw, steps: number, tally: Tally): void {
  const options = ruleset.options.parse(game.options);
  const sides = ruleset.sides(options);
  let state = ruleset.initialState(options, sides);
  for (let seq = 2; seq < steps + 2; seq++) {
    const step = walk.next(state, draw, game.material, seq, sides);
    const { outcome, events } = decideBothWays(ruleset, sides, state, step, () => new FairnessDice(gameKey, seq));
    tally.add(step.type, outcome);
    state = events.reduce(ruleset.evolve, state);
  }
}
