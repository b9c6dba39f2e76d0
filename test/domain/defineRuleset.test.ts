import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../domain/dice';
import { defineRuleset, notACommand, unknownEvent, type CommandOf, type EventOf } from '../../domain/defineRuleset';
import { RuleViolation } from '../../domain/errors';

const commands = {
  Count: { schema: z.strictObject({ by: z.int() }), who: { sides: 'all', organizer: false }, description: 'Count up.' },
  Reset: { schema: z.strictObject({}), who: { sides: 'all', organizer: false }, description: 'Back to 0.' },
} as const;
const events = {
  Counted: z.strictObject({ by: z.int(), total: z.int() }),
  WasReset: z.strictObject({ from: z.int() }),
} as const;
type Command = CommandOf<typeof commands>;
type Event = EventOf<typeof events>;

function decide(total: number, command: Command): Event[] {
  switch (command.type) {
    case 'Count':
      return [{ type: 'Counted', data: { by: command.payload.by, total: total + command.payload.by } }];
    case 'Reset':
      return [{ type: 'WasReset', data: { from: total } }];
    default:
      return notACommand(command, 'counter', 'counter: commands');
  }
}

function evolve(total: number, event: Event): number {
  switch (event.type) {
    case 'Counted':
      return event.data.total;
    case 'WasReset':
      return 0;
    default:
      return unknownEvent(event, total);
  }
}

const counter = defineRuleset({
  id: 'counter',
  title: 'Counter',
  description: 'A ruleset for this test.',
  options: z.strictObject({}),
  sides: () => ['a', 'b'],
  commands,
  procedures: {},
  view: z.int(),
  events,
  initialState: () => 0,
  decide: (state, command) => decide(state, command),
  evolve,
  present: (state) => state,
  summarize: (_command, recorded) => recorded.map((e) => (e.type === 'Counted' ? `+${e.data.by}` : `reset from ${e.data.from}`)).join(', '),
  resultText: (_command, recorded) => recorded.map((e) => (e.type === 'Counted' ? `total ${e.data.total}` : '0')).join(', '),
});

const ctx = { actor: 'a', dice: new GivenDice([]), now: '' };

describe('a ruleset made with defineRuleset', () => {
  it('is the Ruleset the game calls, its decide, evolve and summarize unchanged', () => {
    const recorded = counter.decide(5, { type: 'Count', payload: { by: 2 } }, ctx);
    expect(recorded).toEqual([{ type: 'Counted', data: { by: 2, total: 7 } }]);
    expect(recorded.reduce(counter.evolve, 5)).toBe(7);
    expect(counter.summarize({ type: 'Count', payload: { by: 2 } }, recorded)).toBe('+2');
  });

  it('refuses a command type it does not know with a 422 naming it, as the rulesets always did', () => {
    let error: unknown;
    try {
      counter.decide(0, { type: 'Roll', payload: {} }, ctx);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RuleViolation);
    expect(error).toMatchObject({ message: 'Roll is not a counter command.', rule: 'counter: commands' });
  });

  it('folds a stored event of a type it does not know to the same state, as evolve always did', () => {
    expect(counter.evolve(4, { type: 'SomethingNewer', data: {} })).toBe(4);
  });

  it('makes the compiler refuse an event decide does not declare, and an evolve that forgets one', () => {
    // Checked by `tsc --noEmit` (npm test): each @ts-expect-error fails the build when its line compiles.
    const misspelt = (): Event[] => [
      // @ts-expect-error 'Countd' is not one of the events
      { type: 'Countd', data: { by: 1, total: 1 } },
    ];
    const wrongData = (): Event[] => [
      // @ts-expect-error Counted has no field "count"
      { type: 'Counted', data: { count: 1, total: 1 } },
    ];
    const forgetful = (total: number, event: Event): number => {
      switch (event.type) {
        case 'Counted':
          return event.data.total;
        default:
          // @ts-expect-error WasReset is not handled, so the event here is not `never`
          return unknownEvent(event, total);
      }
    };
    expect([misspelt, wrongData, forgetful].length).toBe(3);
  });
});
