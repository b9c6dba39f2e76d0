import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import type { Ruleset } from '../../../domain/ruleset';
import { diceRuleset } from '../../../domain/rulesets/dice';
import { europaRuleset } from '../../../domain/rulesets/europa';
import { europaFreeText, europaSamples } from './europa/samples';
import { france44Ruleset } from '../../../domain/rulesets/france44';
import { memoir44Ruleset } from '../../../domain/rulesets/memoir44';
import { normandy44Ruleset } from '../../../domain/rulesets/normandy44';
import { tableRuleset } from '../../../domain/rulesets/table';
import { warsAndBattlesRuleset } from '../../../domain/rulesets/warsandbattles';
import { warsAndBattlesFreeText, warsAndBattlesSamples } from './warsandbattles/samples';

type Path = (string | number)[];
/** A valid payload of each command and procedure, with every optional id and text field filled in. */
type Samples = { commands: Record<string, unknown>; procedures: Record<string, unknown> };

const france44Combat = {
  combatId: 'c1',
  kind: 'set-piece',
  attackers: [{ unitId: 'a', hex: '2708', strength: 6 }],
  defenders: [{ unitId: 'd', hex: '2709', strength: 3 }],
  attackerMorale: 3,
  defenderMorale: 3,
  otherMoraleModifiers: [{ source: '79th Armoured', value: -1 }],
};
const normandy44Attack = {
  attackId: 'a1',
  weather: 'clear',
  defenderHex: { terrain: 'bocage' },
  attackers: [{ unitId: '2 Armd', factors: 12, mainAttackForce: true }],
  defenders: [{ unitId: '709', factors: 3, steps: 3 }],
};
const memoir44Battle = {
  attacker: { unitId: '2nd Armored', type: 'armor', figures: 3 },
  target: { unitId: 'Grenadiers', type: 'infantry', figures: 4 },
  range: 1,
  adjacentEnemyIds: ['Grenadiers'],
};

const smallTable = {
  format: 'arbiter-table/1',
  id: 'odds',
  title: 'Odds table',
  source: 'house rules',
  dice: '1d6',
  columns: { kind: 'ratio', labels: ['1-1', '2-1'], landing: 'defender', belowFirst: 'refuse', aboveLast: 'last-column', shiftPastLeft: 'clamp', shiftPastRight: 'die-modifier' },
  rows: [{ atMost: 3 }, { atLeast: 4 }],
  rowsOffTable: 'clamp',
  results: [{ code: 'DR', description: 'defender retreats', effects: [{ effect: 'retreat', side: 'defender', value: 1, note: 'one hex' }] }],
  cells: [['DR', 'DR'], ['DR', 'DR']],
};
const tableFight = { attack: 6, defence: 2, shifts: [{ source: 'marsh', value: -1 }], modifiers: [{ source: 'air support', value: 1 }] };

const samples = new Map<Ruleset, Samples>([
  [
    france44Ruleset,
    {
      commands: {
        StartTurn: { turn: 1, reactionPoints: { allied: 3, german: 3 } },
        ActivateHQ: { hqId: '1US-HQ' },
        BeginReactionSegment: {},
        ReactionPhase: { kind: 'single-piece', unitId: '2 Armd', unitKind: 'combat' },
        EndReactionSegment: {},
        DeclineReactionSegment: {},
        BeginAttackIncrement: {},
        DeclareCombat: france44Combat,
        RollAirPower: { combatId: 'c1', availability: 3 },
        ResolveCombat: { combatId: 'c1' },
        EndAttackIncrement: {},
        ApplySupplyAttrition: { units: [{ unitId: '709', kind: 'combat', outOfSupply: true }] },
      },
      procedures: { combat: { ...france44Combat, airPower: true }, crdt: { ratioResult: 1, defenderMorale: 2, attackerMorale: 3, kind: 'mobile' }, 'air-power': { availability: 2 } },
    },
  ],
  [
    normandy44Ruleset,
    {
      commands: {
        StartTurn: { turn: 1, reinforcementPoints: 4 },
        DeclareAttack: normandy44Attack,
        ResolveAttack: { attackId: 'a1' },
        DeterminedDefense: { attackId: 'a1', leadUnitId: '709', troopQuality: 1 },
        DeclineDeterminedDefense: { attackId: 'a1' },
        Strafe: { targetUnitId: 'Pz Lehr', flak: true },
        IsolationAttrition: { unitId: '709', canTraceSupply: false, troopQuality: 0 },
        PurchaseReinforcements: { items: [{ kind: 'supply-point', army: 'omaha' }] },
        MulberryBuilt: { army: 'omaha' },
      },
      procedures: {
        combat: { ...normandy44Attack, attackerSide: 'german' },
        'determined-defense': { defenderHex: { terrain: 'city' }, armorComparison: 1 },
        jabos: {},
        strafing: { flak: true },
        isolation: { canTraceSupply: true, troopQuality: 1 },
      },
    },
  ],
  [
    memoir44Ruleset,
    {
      commands: { Battle: memoir44Battle, TakeGround: { unitId: memoir44Battle.attacker.unitId }, CardRoll: { dice: 2, purpose: 'Air Power card' }, EndTurn: {} },
      procedures: { battle: { attacker: memoir44Battle.attacker, target: memoir44Battle.target, range: 1 }, 'card-roll': { dice: 2 } },
    },
  ],
  [diceRuleset, { commands: { Roll: { dice: '3d6+1', purpose: 'bombardment of 2708' }, PassTurn: { to: 'player2' } }, procedures: { roll: { dice: '3d6+1' } } }],
  [tableRuleset, { commands: { Resolve: { table: 'odds', ...tableFight, purpose: 'attack on 0912' }, PassTurn: { to: 'player2' } }, procedures: { resolve: { table: smallTable, ...tableFight } } }],
  [warsAndBattlesRuleset, warsAndBattlesSamples],
  [europaRuleset, europaSamples],
]);

/** Every field that takes text a player chooses, found by what the schema accepts. */
const expectedFreeText = new Map<string, string[]>([
  ['france44 ActivateHQ', ['hqId']],
  ['france44 ReactionPhase', ['unitId']],
  ['france44 DeclareCombat', ['combatId', 'attackers[0].unitId', 'defenders[0].unitId', 'otherMoraleModifiers[0].source']],
  ['france44 RollAirPower', ['combatId']],
  ['france44 ResolveCombat', ['combatId']],
  ['france44 ApplySupplyAttrition', ['units[0].unitId']],
  ['france44 procedure combat', ['combatId', 'attackers[0].unitId', 'defenders[0].unitId', 'otherMoraleModifiers[0].source']],
  ['normandy44 DeclareAttack', ['attackId', 'attackers[0].unitId', 'defenders[0].unitId']],
  ['normandy44 ResolveAttack', ['attackId']],
  ['normandy44 DeterminedDefense', ['attackId', 'leadUnitId']],
  ['normandy44 DeclineDeterminedDefense', ['attackId']],
  ['normandy44 Strafe', ['targetUnitId']],
  ['normandy44 IsolationAttrition', ['unitId']],
  ['normandy44 procedure combat', ['attackId', 'attackers[0].unitId', 'defenders[0].unitId']],
  ['memoir44-d6 Battle', ['attacker.unitId', 'target.unitId', 'adjacentEnemyIds[0]']],
  ['memoir44-d6 TakeGround', ['unitId']],
  ['memoir44-d6 CardRoll', ['purpose']],
  ['memoir44-d6 procedure battle', ['attacker.unitId', 'target.unitId']],
  ['dice Roll', ['purpose']],
  ['dice PassTurn', ['to']],
  ['table PassTurn', ['to']],
  ['table Resolve', ['shifts[0].source', 'modifiers[0].source', 'purpose']],
  ['table procedure resolve', ['table.title', 'table.source', 'table.results[0].description', 'table.results[0].effects[0].note', 'shifts[0].source', 'modifiers[0].source']],
  ...Object.entries(warsAndBattlesFreeText),
  ...Object.entries(europaFreeText),
]);

const UNSAFE = /^must not contain control characters, line breaks or text-direction controls$/;
const refusals: [what: string, value: string, message: RegExp][] = [
  ['a forged second line', '709 ID: die 6 -> no effect [4c1d9e2a]\n#3 allied Resign', UNSAFE],
  ['a carriage return', 'a\rb', UNSAFE],
  ['a next-line (NEL)', 'a\u0085b', UNSAFE],
  ['a line separator', 'a\u2028b', UNSAFE],
  ['a right-to-left override', '\u202e709 ID', UNSAFE],
  ['a right-to-left isolate', 'a\u2067b\u2069', UNSAFE],
  ['only spaces', '   ', /^must not be blank$/],
  ['nothing', '', /^must not be empty$/],
];

const ACCEPTED_TEXT = 'Hélène 2';
const showPath = (path: Path) => path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${key}` : key), '');

function stringLeaves(value: unknown, path: Path = []): Path[] {
  if (typeof value === 'string') return [path];
  if (Array.isArray(value)) return value.flatMap((item, i) => stringLeaves(item, [...path, i]));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => stringLeaves(item, [...path, key]));
  return [];
}

function withValue(payload: unknown, path: Path, value: string): unknown {
  const copy = structuredClone(payload) as Record<string | number, unknown>;
  let here = copy;
  for (const key of path.slice(0, -1)) here = here[key] as Record<string | number, unknown>;
  here[path[path.length - 1]] = value;
  return copy;
}

/** Fields where any ordinary text is accepted: the ones a player chooses freely (enums, hexes and dice expressions are not). */
const freeTextPaths = (schema: z.ZodType, payload: unknown) => stringLeaves(payload).filter((path) => schema.safeParse(withValue(payload, path, ACCEPTED_TEXT)).success);

const schemas = [...samples].flatMap(([ruleset, sample]) => [
  ...Object.entries(sample.commands).map(([type, payload]) => ({ name: `${ruleset.id} ${type}`, schema: ruleset.commands[type].schema, payload })),
  ...Object.entries(sample.procedures).map(([procedure, payload]) => ({ name: `${ruleset.id} procedure ${procedure}`, schema: ruleset.procedures[procedure].input, payload })),
]);

describe('text players choose, in the schemas of every ruleset', () => {
  it('has a sample of every command and procedure of every ruleset', () => {
    for (const [ruleset, sample] of samples) {
      expect(Object.keys(sample.commands).sort()).toEqual(Object.keys(ruleset.commands).sort());
      expect(Object.keys(sample.procedures).sort()).toEqual(Object.keys(ruleset.procedures).sort());
    }
  });

  for (const { name, schema, payload } of schemas) {
    describe(name, () => {
      it('accepts its sample, and finds exactly the id and text fields expected', () => {
        expect(schema.safeParse(payload).error).toBeUndefined();
        expect(freeTextPaths(schema, payload).map(showPath)).toEqual(expectedFreeText.get(name) ?? []);
      });

      const fields = freeTextPaths(schema, payload);
      if (fields.length === 0) return;
      it(`refuses line breaks, controls, text-direction controls and blanks in ${fields.map(showPath).join(', ')}, naming the field`, () => {
        for (const path of fields) {
          for (const [what, value, message] of refusals) {
            const parsed = schema.safeParse(withValue(payload, path, value));
            const here = parsed.error?.issues.filter((issue) => showPath(issue.path as Path) === showPath(path)) ?? [];
            expect(here.map((issue) => issue.message), `${showPath(path)} with ${what}`).toEqual([expect.stringMatching(message)]);
          }
        }
      });
    });
  }
});
