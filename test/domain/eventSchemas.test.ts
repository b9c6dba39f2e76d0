import { describe, expect, it } from 'vitest';
import { DomainError } from '../../domain/errors';
import { eventDataSchema, gameEvents } from '../../domain/game/gameEvents';
import type { DomainEvent, Ruleset } from '../../domain/ruleset';
import { diceRuleset } from '../../domain/rulesets/dice';
import { france44Ruleset } from '../../domain/rulesets/france44';
import { memoir44Ruleset } from '../../domain/rulesets/memoir44';
import { normandy44Ruleset } from '../../domain/rulesets/normandy44';
import { allRulesets } from '../../domain/rulesets/registry';
import { harness, type Step } from '../support/rulesetHarness';
import { buildBeaconGame } from '../support/beaconGame';
import { memoryService } from '../support/memoryService';
import { randomCombats } from './rulesets/france44/randomCombats';
import { randomBattles } from './rulesets/memoir44/randomBattles';
import { randomAttacks } from './rulesets/normandy44/randomAttacks';
import { declaration as france44Declaration } from './rulesets/france44/harness';
import { declaration as normandy44Attack } from './rulesets/normandy44/harness';

/**
 * The event schemas the OpenAPI document publishes are the code's own: every event the
 * rulesets' games emit (scripted games reaching every event type, then the seeded random
 * combats the ruleset tests use, played as games) parses against its type's schema, and
 * every published type is emitted by some game.
 */

/** Plays steps through a ruleset's schema, decide and evolve, keeping every event; a step the rules refuse is skipped. */
function play<S>(ruleset: Ruleset<S>, games: Step[][], options: Record<string, unknown> = {}) {
  const { given, apply } = harness(ruleset);
  const events: DomainEvent[] = [];
  let refused = 0;
  for (const steps of games) {
    let state = given([], options);
    for (const step of steps) {
      try {
        const outcome = apply(state, step);
        events.push(...outcome.events);
        state = outcome.state;
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        refused += 1;
      }
    }
  }
  return { events, refused };
}

function expectEventsMatch(ruleset: Ruleset, events: readonly DomainEvent[]) {
  const problems: string[] = [];
  for (const event of events) {
    const schema = ruleset.events?.[event.type];
    if (!schema) {
      problems.push(`${event.type}: no schema`);
      continue;
    }
    const parsed = schema.safeParse(event.data);
    if (!parsed.success) problems.push(`${event.type}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')} in ${JSON.stringify(event.data)}`);
  }
  expect(problems).toEqual([]);
  // Every published type is one the code emits.
  expect([...new Set(events.map((e) => e.type))].sort()).toEqual(Object.keys(ruleset.events ?? {}).sort());
}

const france44Script: Step[] = [
  ['allied', 'StartTurn', { turn: 1, reactionPoints: { allied: 5, german: 5 } }],
  ['allied', 'ActivateHQ', { hqId: 'h1' }],
  ['german', 'BeginReactionSegment'],
  ['german', 'ReactionPhase', { kind: 'single-piece', unitId: 'u1', unitKind: 'combat', outOfSupply: true }],
  ['german', 'ReactionPhase', { kind: 'single-piece', unitId: 'h2', unitKind: 'hq' }],
  ['german', 'EndReactionSegment'],
  ['allied', 'BeginReactionSegment'],
  ['allied', 'ReactionPhase', { kind: 'army', hqId: 'h3' }],
  ['allied', 'EndReactionSegment'],
  ['german', 'DeclineReactionSegment'],
  ['allied', 'BeginAttackIncrement'],
  ['allied', 'DeclareCombat', france44Declaration('c1', { terrainMoraleModifiers: [1, 2], otherMoraleModifiers: [{ source: 'heavy bombing', value: -2 }] })],
  ['allied', 'DeclareCombat', france44Declaration('c2', { kind: 'mobile', defenders: [{ unitId: 'c2-d', hex: '2709', strength: 3, outOfSupply: true }] })],
  ['allied', 'RollAirPower', { combatId: 'c1', availability: 6 }, [1]],
  ['allied', 'ResolveCombat', { combatId: 'c1' }, [6]],
  ['allied', 'ResolveCombat', { combatId: 'c2' }, [1]],
  ['allied', 'EndAttackIncrement'],
  ['allied', 'BeginAttackIncrement'],
  ['allied', 'DeclareCombat', france44Declaration('c3', { attackers: [{ unitId: 'c3-a', hex: '2708', strength: 12 }] })],
  ['allied', 'RollAirPower', { combatId: 'c3', availability: 0 }, [6]],
  ['allied', 'ResolveCombat', { combatId: 'c3' }, [6]],
  ['allied', 'EndAttackIncrement'],
  [
    'german',
    'ApplySupplyAttrition',
    {
      units: [
        { unitId: 'x1', kind: 'combat', outOfSupply: true },
        { unitId: 'x2', kind: 'combat', outOfSupply: true, atCadre: true },
        { unitId: 'x3', kind: 'hq', outOfSupply: true },
        { unitId: 'x4', kind: 'combat', outOfSupply: false },
      ],
    },
  ],
];

const normandy44Script: Step[] = [
  ['allied', 'StartTurn', { turn: 1, reinforcementPoints: 10 }],
  ['allied', 'MulberryBuilt', { army: 'omaha' }],
  ['allied', 'PurchaseReinforcements', { items: [{ kind: 'supply-point', army: 'omaha' }, { kind: 'hq' }] }],
  ['allied', 'DeclareAttack', normandy44Attack('a1')],
  ['allied', 'ResolveAttack', { attackId: 'a1' }, [2]],
  ['german', 'DeterminedDefense', { attackId: 'a1', leadUnitId: 'a1-d', troopQuality: 1, defensiveSupport: true }, [4]],
  ['allied', 'DeclareAttack', normandy44Attack('a2')],
  ['allied', 'ResolveAttack', { attackId: 'a2' }, [3]],
  ['german', 'DeclineDeterminedDefense', { attackId: 'a2' }],
  ['german', 'DeclareAttack', normandy44Attack('g1', { weather: 'clear', shifts: { tiger: 'attacker', armorAdvantage: 'attacker' } })],
  ['german', 'ResolveAttack', { attackId: 'g1' }, [5, 6]],
  ['allied', 'Strafe', { targetUnitId: 't1', flak: true, strategicMovement: true }, [6]],
  ['german', 'IsolationAttrition', { unitId: 'i1', canTraceSupply: true, troopQuality: -1 }, [1]],
  ['allied', 'StartTurn', { turn: 2 }],
];

const memoir44Script: Step[] = [
  ['allies', 'Battle', { attacker: { unitId: 'a1', type: 'infantry', figures: 3, special: true }, target: { unitId: 't1', type: 'armor', figures: 3, terrain: 'hill', uphill: true }, range: 1 }, [6, 6, 6, 6, 5, 5, 5]],
  ['allies', 'CardRoll', { dice: 3, purpose: 'Air Power' }, [1, 2, 6]],
  ['allies', 'EndTurn'],
  ['axis', 'Battle', { attacker: { unitId: 'b1', type: 'artillery', figures: 2 }, target: { unitId: 't2', type: 'artillery', figures: 2, terrain: 'bunker' }, range: 4, starsHit: true }, [1, 6, 3, 2]],
  ['axis', 'Battle', { attacker: { unitId: 'c1', type: 'armor', figures: 3 }, target: { unitId: 't3', type: 'infantry', figures: 2 }, range: 1 }, [6, 6, 5, 5, 2, 2]],
  ['axis', 'TakeGround', { unitId: 'c1' }],
  ['axis', 'Battle', { attacker: { unitId: 'c1', type: 'armor', figures: 3 }, target: { unitId: 't4', type: 'infantry', figures: 4 }, range: 1 }, [4, 4, 1, 2, 3, 3]],
];

describe('the event schemas of each ruleset', () => {
  it('dice: a roll, a hand-over', () => {
    const { events } = play(diceRuleset, [[['player1', 'Roll', { dice: '2d6+1', purpose: 'attack on 2708' }, [3, 4]], ['player1', 'PassTurn', { to: 'player2' }], ['player2', 'Roll', { dice: [{ count: 3, sides: 10 }], purpose: 'morale' }, [1, 2, 10]]]]);
    expectEventsMatch(diceRuleset, events);
  });

  it('france44: every phase of a turn, and 300 seeded random combats played as increments', () => {
    const random: Step[][] = randomCombats(300).map(({ combat: { airPower: _airPower, ...combat }, die }) => [
      ['allied', 'StartTurn', { turn: 1 }],
      ['allied', 'BeginAttackIncrement'],
      [
        'allied',
        'DeclareCombat',
        { ...combat, attackers: combat.attackers.map((a) => ({ ...a, hex: '2708' })), defenders: combat.defenders.map((d) => ({ ...d, hex: '2709' })) },
      ],
      ['allied', 'RollAirPower', { combatId: combat.combatId, availability: 3 }, [die]],
      ['allied', 'ResolveCombat', { combatId: combat.combatId }, [die]],
      ['allied', 'EndAttackIncrement'],
    ]);
    const { events, refused } = play(france44Ruleset, [france44Script, ...random]);
    expect(events.filter((e) => e.type === 'CombatResolved').length).toBeGreaterThan(200);
    expect(refused).toBeLessThan(300);
    expectEventsMatch(france44Ruleset, events);
  });

  it('normandy44: a turn of attacks, Determined Defense, air and supply, and 300 seeded random attacks', () => {
    const random: Step[][] = randomAttacks(300).map(({ input: { attackerSide, ...attack }, dice }, i) => {
      const attackId = `r${i}`;
      return [
        ['allied', 'StartTurn', { turn: 1 }],
        [attackerSide, 'DeclareAttack', { attackId, ...attack, attackers: attack.attackers.map((a, n) => ({ ...a, unitId: `a${n}` })), defenders: attack.defenders.map((d, n) => ({ ...d, unitId: `d${n}` })) }],
        [attackerSide, 'ResolveAttack', { attackId }, dice],
        [attackerSide === 'allied' ? 'german' : 'allied', 'DeterminedDefense', { attackId, leadUnitId: 'd0', armorComparison: (i % 13) - 6 }, [dice[0]]],
      ];
    });
    const { events } = play(normandy44Ruleset, [normandy44Script, ...random]);
    expect(events.filter((e) => e.type === 'AttackResolved').length).toBeGreaterThan(100);
    expect(events.filter((e) => e.type === 'DeterminedDefenseRolled').length).toBeGreaterThan(10);
    expectEventsMatch(normandy44Ruleset, events);
  });

  it('memoir44-d6: battles, a card roll, a turn, and 300 seeded random battles', () => {
    const random: Step[][] = randomBattles(300).map(({ input, dice }, i) => [
      ['allies', 'Battle', { ...input, attacker: { ...input.attacker, unitId: `a${i}` }, target: { ...input.target, unitId: `t${i}` } }, dice],
    ]);
    const { events } = play(memoir44Ruleset, [memoir44Script, ...random]);
    expect(events.filter((e) => e.type === 'BattleFought').length).toBeGreaterThan(100);
    expectEventsMatch(memoir44Ruleset, events);
  });

  it('are published for every ruleset, and are strict: a field the schema does not name is refused', () => {
    for (const ruleset of allRulesets()) expect(Object.keys(ruleset.events ?? {}).length, ruleset.id).toBeGreaterThan(0);
    expect(diceRuleset.events!.DiceRolled.safeParse({ purpose: 'p', dice: '1d6', rolls: [{ sides: 6, value: 3 }], modifier: 0, total: 3 }).success).toBe(true);
    expect(diceRuleset.events!.DiceRolled.safeParse({ purpose: 'p', dice: '1d6', rolls: [{ sides: 6, value: 3 }], modifier: 0, total: 3, extra: 1 }).success).toBe(false);
  });
});

describe("the game's own events", () => {
  it('creation, entropy, a roll, its void, a ruling, a token reissued and one revoked, the seal: each parses against its schema', async () => {
    const { service, store } = memoryService('events');
    const game = await service.createGame({ ruleset: 'dice', title: 'schemas', options: { sides: ['red', 'blue'] } });
    const { organizer, players } = game.tokens;
    await service.submit(game.gameId, players.red, { commandId: 'e1', type: 'ContributeEntropy', payload: { entropy: 'red' } });
    await service.submit(game.gameId, players.blue, { commandId: 'r1', type: 'Roll', payload: { dice: '3d6', purpose: 'p' } });
    await service.submit(game.gameId, organizer, { commandId: 'v1', type: 'Void', payload: { seq: 3, reason: 'rolled twice' } });
    await service.submit(game.gameId, organizer, { commandId: 'u1', type: 'Ruling', payload: { text: 'the second roll stands', concerning: [3] } });
    await service.reissueToken(game.gameId, organizer, 'red');
    await service.revokeToken(game.gameId, organizer, 'blue');
    await service.submit(game.gameId, organizer, { commandId: 'seal', type: 'Seal', payload: {} });

    const events = (await store.read(game.gameId, 0)).flatMap((c) => c.events);
    const problems = events.flatMap((e) => {
      const schema = eventDataSchema(diceRuleset, e.type);
      if (!schema) return [`${e.type}: no schema`];
      const parsed = schema.safeParse(e.data);
      return parsed.success ? [] : [`${e.type}: ${parsed.error.message}`];
    });
    expect(problems).toEqual([]);
    expect(events.map((e) => e.type)).toEqual(['GameCreated', 'EntropyContributed', 'DiceRolled', 'CommitVoided', 'RulingRecorded', 'TokenReissued', 'TokenRevoked', 'GameSealed']);
    // A beacon game's pending rolls and reveals, and the refusal a reveal would record should the rules ever refuse after a die.
    const beacon = buildBeaconGame().bundle.commits.flatMap((c) => c.events);
    const refused = { type: 'BeaconRollRefused', data: { code: 'insufficient_dice', message: 'This needs at least 1 dice.' } };
    const more = [...beacon, refused].flatMap((e) => {
      const parsed = eventDataSchema(diceRuleset, e.type)?.safeParse(e.data);
      return parsed?.success ? [] : [`${e.type}: ${parsed ? parsed.error.message : 'no schema'}`];
    });
    expect(more).toEqual([]);
    const seen = new Set([...events, ...beacon, refused].map((e) => e.type));
    expect(Object.keys(gameEvents).sort()).toEqual([...seen].filter((t) => t !== 'DiceRolled').sort());
  });

  it('no ruleset reuses the name of a game event for its own', () => {
    for (const ruleset of allRulesets()) for (const type of Object.keys(ruleset.events ?? {})) expect(Object.hasOwn(gameEvents, type), `${ruleset.id} ${type}`).toBe(false);
  });
});
