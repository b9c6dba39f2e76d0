import fc from 'fast-check';
import type { France44State } from '../../../../domain/rulesets/france44/state';
import type { Draw, Walk } from '../refusesBeforeDice';

const SIDES = ['allied', 'german'] as const;
/** 2708 and 2709 touch on either grid; the others touch some of them, or none. */
const HEXES = ['2708', '2709', '2808', '2809', '2607', '2710'];
const TYPES = [
  ...['StartTurn', 'StartTurn', 'ActivateHQ', 'BeginReactionSegment', 'ReactionPhase', 'EndReactionSegment', 'DeclineReactionSegment'],
  ...['BeginAttackIncrement', 'BeginAttackIncrement', 'DeclareCombat', 'DeclareCombat', 'DeclareCombat', 'RollAirPower', 'RollAirPower'],
  ...['ResolveCombat', 'ResolveCombat', 'ResolveCombat', 'EndAttackIncrement', 'EndAttackIncrement', 'ApplySupplyAttrition'],
];

function declaration(d: Draw, combatId: string) {
  const attackers = Array.from({ length: d.int(1, 3) }, () =>
    d.chance(0.15)
      ? { unitId: `hq${d.int(1, 3)}`, hex: d.chance(0.85) ? '2708' : d.pick(HEXES), hq: true, ...(d.chance(0.5) ? { strength: d.int(0, 3) } : {}), ...(d.chance(0.2) ? { outOfSupply: true } : {}) }
      : { unitId: d.chance(0.8) ? `${combatId}-a${d.int(1, 3)}` : `a${d.int(1, 3)}`, hex: d.chance(0.85) ? '2708' : d.pick(HEXES), strength: d.int(0, 12), ...(d.chance(0.1) ? { outOfSupply: true } : {}) },
  );
  const defenders = Array.from({ length: d.int(1, 2) }, () => ({ unitId: d.chance(0.8) ? `${combatId}-d${d.int(1, 2)}` : `d${d.int(1, 2)}`, hex: d.chance(0.85) ? '2709' : d.pick(HEXES), strength: d.int(1, 10), ...(d.chance(0.3) ? { outOfSupply: true } : {}) }));
  return {
    combatId,
    kind: d.pick(['set-piece', 'mobile']),
    attackers,
    defenders,
    attackerMorale: d.int(1, 6),
    defenderMorale: d.int(1, 6),
    ...(d.chance(0.4) ? { terrainMoraleModifiers: [d.pick([1, 2])] } : {}),
    ...(d.chance(0.4) ? { otherMoraleModifiers: [{ source: 'heavy bombing', value: d.int(-3, 3) }] } : {}),
  };
}

/** Half the time the command that moves the game on: a turn, an increment, its combats declared, resolved, ended. */
function onwards(state: France44State, d: Draw): string | undefined {
  if (!d.chance(0.5)) return undefined;
  if (state.turn === 0) return 'StartTurn';
  const increment = state.increment;
  if (!increment) return d.chance(0.8) ? 'BeginAttackIncrement' : 'StartTurn';
  const unresolved = Object.values(increment.combats).some((c) => !c.resolved);
  if (!increment.firstResolved && d.chance(0.5)) return 'DeclareCombat';
  if (unresolved) return d.pick(['ResolveCombat', 'ResolveCombat', 'RollAirPower']);
  return 'EndAttackIncrement';
}

/** France 1944: turns, HQ activations, reaction segments, attack increments and their combats, supply attrition. */
export const france44Walk: Walk = {
  game: fc
    .record({ hexGrid: fc.constantFrom('odd-q', 'even-q'), cAttackerLoss: fc.boolean(), airPowerMoraleModifier: fc.integer({ min: -3, max: 0 }), rulesVersion: fc.constantFrom(undefined, 1, 2) })
    .map(({ rulesVersion, ...rest }) => ({ options: { ...rest, ...(rulesVersion ? { rulesVersion } : {}) }, material: null })),
  next(state: France44State, d, _material, seq) {
    const type = onwards(state, d) ?? d.pick(TYPES);
    const increment = state.increment;
    // Air power is the Allies' own: mostly sent by them, in their increments.
    const actor = type === 'RollAirPower' && d.chance(0.8) ? 'allied' : increment && d.chance(0.8) ? increment.attacker : d.pick([...SIDES, 'organizer']);
    const declared = increment ? Object.keys(increment.combats) : [];
    const combatId = declared.length && d.chance(0.85) ? d.pick(declared) : `c${d.int(1, 4)}`;
    const payload = (() => {
      switch (type) {
        case 'StartTurn':
          return { turn: d.chance(0.85) ? state.turn + 1 : d.int(1, 5), ...(d.chance(0.5) ? { reactionPoints: { allied: d.int(0, 6), german: d.int(0, 6) } } : {}) };
        case 'ActivateHQ':
          return { hqId: `hq${d.int(1, 3)}` };
        case 'ReactionPhase':
          return d.chance(0.3)
            ? { kind: 'army', hqId: `hq${d.int(1, 3)}` }
            : { kind: 'single-piece', unitId: `u${d.int(1, 4)}`, unitKind: d.pick(['combat', 'hq']), ...(d.chance(0.3) ? { outOfSupply: true } : {}) };
        case 'DeclareCombat':
          return declaration(d, d.chance(0.8) ? `c${seq}` : combatId);
        case 'RollAirPower':
          return { combatId, availability: d.int(0, 6) };
        case 'ResolveCombat':
          return { combatId };
        case 'ApplySupplyAttrition':
          return {
            units: Array.from({ length: d.int(1, 3) }, () => ({
              unitId: `u${d.int(1, 4)}`,
              kind: d.pick(['combat', 'hq']),
              outOfSupply: d.chance(0.6),
              ...(d.chance(0.3) ? { atCadre: true } : {}),
              ...(d.chance(0.3) ? { stackedWithCombatUnit: true } : {}),
            })),
          };
        default:
          return {};
      }
    })();
    return { actor, type, payload };
  },
  rolling: ['RollAirPower', 'ResolveCombat'],
};
