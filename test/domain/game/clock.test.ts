import { describe, expect, it } from 'vitest';
import type { Commit } from '../../../domain/fairness/hashChain';
import { buildCommit } from '../../../domain/game/buildCommit';
import { clockView, overdueSides, TimeControl } from '../../../domain/game/clock';
import { decideCreate } from '../../../domain/game/decideGame';
import { CreateGameBody } from '../../../domain/game/gameCommands';
import { evolveGame, type GameState } from '../../../domain/game/gameState';
import type { Command, DomainEvent } from '../../../domain/ruleset';
import { diceRuleset } from '../../../domain/rulesets/dice';

type Step = { at: string; actor: string; command: Command; events: DomainEvent[] };

const rolled = { type: 'DiceRolled', data: { purpose: 'fire', dice: '1d6', rolls: [{ sides: 6, value: 4 }], modifier: 0, total: 4 } };
const roll = (at: string, actor: string): Step => ({ at, actor, command: { type: 'Roll', payload: { dice: 'd6', purpose: 'fire' } }, events: [rolled] });
const pass = (at: string, actor: string, to: string): Step => ({ at, actor, command: { type: 'PassTurn', payload: { to } }, events: [{ type: 'TurnPassed', data: { to } }] });
const seal = (at: string): Step => ({ at, actor: 'organizer', command: { type: 'Seal', payload: {} }, events: [{ type: 'GameSealed', data: { serverSeed: '00' } }] });

function commitAfter(state: GameState | undefined, step: Step): Commit {
  return buildCommit(
    {
      gameId: 'g-clock',
      seq: (state?.version ?? 0) + 1,
      prevHash: state?.lastHash ?? '0'.repeat(64),
      commandId: `c${(state?.version ?? 0) + 1}`,
      actor: step.actor,
      viaOrganizer: false,
      command: step.command,
      events: step.events,
      dice: [],
      recordedAt: step.at,
      kid: 'k',
    },
    () => '',
  );
}

/** A dice game of red and blue created at `at` with this creation body, then the steps: the state after each commit. */
function play(at: string, body: Record<string, unknown>, steps: Step[]): GameState[] {
  const creation = { ruleset: 'dice', options: { sides: ['red', 'blue'] }, ...body };
  const parsed = CreateGameBody.parse(creation);
  let state = evolveGame(undefined, commitAfter(undefined, { at, actor: 'organizer', command: { type: 'CreateGame', payload: creation }, events: [decideCreate(diceRuleset, parsed, 'c'.repeat(64))] }));
  const states = [state];
  for (const step of steps) {
    state = evolveGame(state, commitAfter(state, step));
    states.push(state);
  }
  return states;
}

const used = (state: GameState) => Object.fromEntries([...state.clock.usedMs].map(([side, ms]) => [side, ms]));

describe('the turn clock, folded from the recordedAt of the commits', () => {
  // red to move from creation at 10:00:00; each span goes to the side to move after the commit before it.
  const states = play('2026-11-27T10:00:00.000Z', {}, [
    roll('2026-11-27T10:00:30.000Z', 'red'), //       +30 s red
    pass('2026-11-27T10:01:00.250Z', 'red', 'blue'), // +30.25 s red; blue to move from here
    roll('2026-11-27T10:03:00.250Z', 'blue'), //       +120 s blue
    roll('2026-11-27T10:03:10.250Z', 'red'), //        +10 s blue (red rolled out of turn: the move is still blue's)
    pass('2026-11-27T10:04:00.000Z', 'blue', 'red'), // +49.75 s blue; red to move
    seal('2026-11-27T10:05:00.000Z'), //               +60 s red; nobody to move once sealed
  ]);

  it('charges each span between two commits to the side to move after the first, cell by cell', () => {
    expect(states.map(used)).toEqual([
      { red: 0, blue: 0 },
      { red: 30_000, blue: 0 },
      { red: 60_250, blue: 0 },
      { red: 60_250, blue: 120_000 },
      { red: 60_250, blue: 130_000 },
      { red: 60_250, blue: 179_750 },
      { red: 120_250, blue: 179_750 },
    ]);
    expect(states.map((s) => s.clock.toMove)).toEqual(['red', 'red', 'blue', 'blue', 'blue', 'red', null]);
    expect(states.map((s) => s.clock.since)).toEqual([
      '2026-11-27T10:00:00.000Z',
      '2026-11-27T10:00:00.000Z',
      '2026-11-27T10:01:00.250Z',
      '2026-11-27T10:01:00.250Z',
      '2026-11-27T10:01:00.250Z',
      '2026-11-27T10:04:00.000Z',
      '2026-11-27T10:05:00.000Z',
    ]);
  });

  it('shows the figures in seconds, every side in the order of the game, as of the last commit', () => {
    expect(clockView(states[5], '2026-11-27T10:04:30.000Z')).toEqual({
      toMove: 'red',
      since: '2026-11-27T10:04:00.000Z',
      asOf: '2026-11-27T10:04:00.000Z',
      sides: { red: { usedSeconds: 60.25 }, blue: { usedSeconds: 179.75 } },
      overdue: [],
    });
    expect(Object.keys(clockView(states[5]).sides)).toEqual(['red', 'blue']);
  });

  it('never charges a span that runs backwards (a commit recorded before the one it follows)', () => {
    const [, after] = play('2026-11-27T10:00:00.000Z', {}, [roll('2026-11-27T09:59:00.000Z', 'red')]);
    expect(used(after)).toEqual({ red: 0, blue: 0 });
  });
});

describe('time controls', () => {
  const perMove = play('2026-11-27T10:00:00.000Z', { timeControl: { perMoveSeconds: 600 } }, [pass('2026-11-27T10:02:00.000Z', 'red', 'blue'), roll('2026-11-27T10:05:00.000Z', 'blue')]).at(-1)!;

  it('flag the side to move once its move has taken longer than the time per move, counted from when it came to move', () => {
    // blue came to move at 10:02:00: 600 s later is 10:12:00.
    expect(overdueSides(perMove, '2026-11-27T10:12:00.000Z')).toEqual([]);
    expect(overdueSides(perMove, '2026-11-27T10:12:00.001Z')).toEqual(['blue']);
    expect(clockView(perMove, '2026-11-27T10:12:01.000Z')).toMatchObject({ timeControl: { perMoveSeconds: 600 }, overdue: ['blue'] });
  });

  it('flag the side to move once its time used and its running move pass its total', () => {
    // red used 120 s, then blue 180 s; blue to move: its total of 300 s is passed 120 s after the last commit.
    const game = play('2026-11-27T10:00:00.000Z', { timeControl: { totalSeconds: 300 } }, [pass('2026-11-27T10:02:00.000Z', 'red', 'blue'), roll('2026-11-27T10:05:00.000Z', 'blue')]).at(-1)!;
    expect(overdueSides(game, '2026-11-27T10:07:00.000Z')).toEqual([]);
    expect(overdueSides(game, '2026-11-27T10:07:00.001Z')).toEqual(['blue']);
  });

  it('flag nobody in a game without a time control, or when nobody is to move', () => {
    const none = play('2026-11-27T10:00:00.000Z', {}, [roll('2026-11-27T10:05:00.000Z', 'red')]).at(-1)!;
    expect(overdueSides(none, '2027-01-01T00:00:00.000Z')).toEqual([]);
    const sealed = play('2026-11-27T10:00:00.000Z', { timeControl: { perMoveSeconds: 60 } }, [seal('2026-11-27T10:00:30.000Z')]).at(-1)!;
    expect(overdueSides(sealed, '2027-01-01T00:00:00.000Z')).toEqual([]);
  });

  it('are limits from 60 seconds to 90 days, at least one of them', () => {
    expect(TimeControl.safeParse({ perMoveSeconds: 60, totalSeconds: 7_776_000 }).success).toBe(true);
    expect(TimeControl.safeParse({}).success).toBe(false);
    expect(TimeControl.safeParse({ perMoveSeconds: 59 }).success).toBe(false);
    expect(TimeControl.safeParse({ totalSeconds: 7_776_001 }).success).toBe(false);
    expect(TimeControl.safeParse({ perMoveSeconds: 90.5 }).success).toBe(false);
    expect(TimeControl.safeParse({ perMoveSeconds: 600, daily: 1 }).success).toBe(false);
  });
});

describe('the turn clock in a beacon game', () => {
  const pending = (at: string, actor: string): Step => ({
    at,
    actor,
    command: { type: 'Roll', payload: { dice: 'd6', purpose: 'fire' } },
    events: [{ type: 'BeaconRollPending', data: { round: 100, roundAt: '2026-11-27T10:01:03.000Z' } }],
  });
  const reveal = (at: string): Step => ({ at, actor: 'server', command: { type: 'RevealBeacon', payload: { pending: 2, round: 100, signature: '0'.repeat(96) } }, events: [rolled] });
  // red sends a roll at 10:01; the server reveals it at 10:30 (a late reveal): that wait is the server's.
  const states = play('2026-11-27T10:00:00.000Z', { timeControl: { perMoveSeconds: 600 } }, [pending('2026-11-27T10:01:00.000Z', 'red'), reveal('2026-11-27T10:30:00.000Z'), pass('2026-11-27T10:31:00.000Z', 'red', 'blue')]);

  it('charges nobody for the wait between a pending roll and its reveal; the move starts again at the reveal', () => {
    expect(states.map(used)).toEqual([
      { red: 0, blue: 0 },
      { red: 60_000, blue: 0 },
      { red: 60_000, blue: 0 },
      { red: 120_000, blue: 0 },
    ]);
    expect(states.map((s) => s.clock.since)).toEqual(['2026-11-27T10:00:00.000Z', '2026-11-27T10:00:00.000Z', '2026-11-27T10:30:00.000Z', '2026-11-27T10:31:00.000Z']);
  });

  it('flags nobody overdue while the roll waits for its round', () => {
    expect(overdueSides(states[1], '2026-11-27T10:29:00.000Z')).toEqual([]);
    expect(overdueSides(states[2], '2026-11-27T10:35:00.000Z')).toEqual([]);
    expect(overdueSides(states[2], '2026-11-27T10:41:00.000Z')).toEqual(['red']);
  });
});
