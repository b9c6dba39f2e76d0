import { describe, expect, it } from 'vitest';
import { europaRuleset } from '../../../domain/rulesets/europa';
import { france44Ruleset } from '../../../domain/rulesets/france44';
import { memoir44Ruleset } from '../../../domain/rulesets/memoir44';
import { normandy44Ruleset } from '../../../domain/rulesets/normandy44';
import { decider } from '../../support/rulesetHarness';

describe('France 1944, from the events of a game', () => {
  const france44 = decider(france44Ruleset);
  const turnOne = { type: 'TurnStarted', data: { turn: 1, reactionPoints: { allied: 3, german: 2 } } };
  const activated = (activationsThisTurn: number) => ({ type: 'HQActivated', data: { side: 'allied', hqId: 'hq1', via: 'initiative', activationsThisTurn } });

  it('ends an attack increment without combats, counting none', () => {
    france44
      .given([turnOne, { type: 'AttackIncrementBegun', data: { increment: 1, attacker: 'allied' } }])
      .when(['allied', 'EndAttackIncrement'])
      .then([{ type: 'AttackIncrementEnded', data: { increment: 1, attacker: 'allied', combats: 0 } }]);
  });

  it('keeps the increment to its attacker', () => {
    france44
      .given([turnOne, { type: 'AttackIncrementBegun', data: { increment: 1, attacker: 'allied' } }])
      .when(['german', 'EndAttackIncrement'])
      .then({ refused: /is the allied side's: only it may end it/ });
  });

  it('refuses a third activation of one HQ in a game turn, counted from the recorded activations', () => {
    const twice = [turnOne, activated(1), { type: 'HQActivated', data: { side: 'allied', hqId: 'hq2', via: 'initiative', activationsThisTurn: 1 } }, activated(2)];
    france44.given(twice).when(['allied', 'ActivateHQ', { hqId: 'hq1' }]).then({ refused: /already activated twice this game turn/ });
    france44.given([...twice, { type: 'TurnStarted', data: { turn: 2, reactionPoints: { allied: 0, german: 0 } } }]).when(['allied', 'ActivateHQ', { hqId: 'hq1' }]).then([activated(1)]);
  });
});

describe("Normandy '44, from the events of a game", () => {
  const normandy44 = decider(normandy44Ruleset);

  it('loses the Allied reinforcement points left unspent when the next turn starts', () => {
    normandy44
      .given([{ type: 'TurnStarted', data: { turn: 1, reinforcementPoints: 4, forfeited: 0 } }])
      .when(['allied', 'StartTurn', { turn: 2 }])
      .then([{ type: 'TurnStarted', data: { turn: 2, reinforcementPoints: 0, forfeited: 4 } }]);
  });

  it('records a Mulberry once', () => {
    normandy44.given([{ type: 'MulberryBuilt', data: { army: 'omaha' } }]).when(['allied', 'MulberryBuilt', { army: 'omaha' }]).then({ refused: /already built/ });
  });
});

describe("Memoir '44, from the events of a game", () => {
  const memoir44 = decider(memoir44Ruleset);
  const alliesPassed = { type: 'TurnEnded', data: { side: 'allies', turn: 1, next: 'axis' } };

  it('gives the turn to the side the last TurnEnded named', () => {
    memoir44.given([alliesPassed]).when(['allies', 'EndTurn']).then({ refused: /It is the axis side's turn/ });
    memoir44.given([alliesPassed]).when(['axis', 'EndTurn']).then([{ type: 'TurnEnded', data: { side: 'axis', turn: 2, next: 'allies' } }]);
  });
});

describe('Europa, from the events of a game', () => {
  const europa = decider(europaRuleset);
  const westwall = { type: 'FortificationPlaced', data: { site: '2708', kind: 'westwall', owner: 'axis', condition: 'unimproved', level: 1, chartRow: 'westwall-unimproved' } };

  it('begins improving a Westwall hex the Axis owns: 4 turns, 2 resource points', () => {
    europa
      .given([westwall, { type: 'TurnBegan', data: { turn: 3 } }])
      .when(['axis', 'FortificationEvent', { action: 'begin-improvement', site: '2708' }])
      .then([{ type: 'ImprovementBegun', data: { site: '2708', turn: 3, turns: 4, completesOnTurn: 7, quickConstruction: false, resourcePoints: 2 } }]);
  });

  it('refuses to improve a Westwall hex the Allies took', () => {
    europa
      .given([westwall, { type: 'TurnBegan', data: { turn: 3 } }, { type: 'OwnershipChanged', data: { site: '2708', kind: 'westwall', from: 'axis', to: 'allied' } }])
      .when(['axis', 'FortificationEvent', { action: 'begin-improvement', site: '2708' }])
      .then({ refused: /improves only Westwall hexes it owns/ });
  });
});

describe('the harness itself', () => {
  it('will not start from an event the ruleset could not have recorded', () => {
    expect(() => decider(memoir44Ruleset).given([{ type: 'TurnEnded', data: { side: 'allies', turn: 1 } }])).toThrow(/TurnEnded as its schema describes it/);
    expect(() => decider(memoir44Ruleset).given([{ type: 'TurnEndedd', data: {} }])).toThrow(/TurnEndedd is an event of memoir44-d6/);
  });
});
