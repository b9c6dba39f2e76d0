import fc from 'fast-check';
import { REINFORCEMENT_COSTS } from '../../../../domain/rulesets/normandy44/tables';
import type { Normandy44State } from '../../../../domain/rulesets/normandy44/state';
import type { Draw, Walk } from '../refusesBeforeDice';

const SIDES = ['allied', 'german'] as const;
const other = (side: string) => (side === 'allied' ? 'german' : 'allied');
const HEXSIDES = ['none', 'minor-river', 'major-river', 'flooded', 'runway', 'cherbourg-perimeter', 'causeway', 'impassable'];
const TERRAIN = ['clear', 'mixed', 'bocage', 'woods', 'village', 'city', 'flooded'];
const TYPES = [
  ...['StartTurn', 'StartTurn', 'DeclareAttack', 'DeclareAttack', 'DeclareAttack', 'DeclareAttack', 'ResolveAttack', 'ResolveAttack', 'ResolveAttack', 'ResolveAttack'],
  ...['DeterminedDefense', 'DeterminedDefense', 'DeterminedDefense', 'DeclineDeterminedDefense', 'Strafe', 'Strafe', 'IsolationAttrition', 'IsolationAttrition', 'PurchaseReinforcements', 'MulberryBuilt'],
];

function declaration(d: Draw, attackId: string) {
  const favour = () => d.pick(['attacker', 'defender']);
  return {
    attackId,
    weather: d.pick(['clear', 'overcast', 'storm']),
    defenderHex: { terrain: d.pick(TERRAIN), ...(d.chance(0.2) ? { hilltop: true } : {}), ...(d.chance(0.1) ? { fortifiedPosition: true } : {}), ...(d.chance(0.1) ? { strongpoint: true } : {}) },
    attackers: Array.from({ length: d.int(1, 3) }, (_, i) => ({
      unitId: `${attackId}-a${i}`,
      factors: d.int(0, 12),
      mainAttackForce: d.chance(0.8),
      ...(d.chance(0.3) ? { hexside: d.pick(HEXSIDES) } : {}),
      ...(d.chance(0.1) ? { fromFloodedHex: true } : {}),
      ...(d.chance(0.1) ? { outOfSupply: true } : {}),
      ...(d.chance(0.05) ? { landingTurn: true } : {}),
    })),
    defenders: Array.from({ length: d.int(1, 2) }, (_, i) => ({ unitId: `${attackId}-d${i}`, factors: d.int(0, 8), steps: d.int(1, 4) })),
    shifts: {
      ...(d.chance(0.3) ? { troopQuality: favour() } : {}),
      ...(d.chance(0.3) ? { armorAdvantage: favour() } : {}),
      ...(d.chance(0.2) ? { tiger: favour() } : {}),
      ...(d.chance(0.3) ? { airSupport: d.int(0, 2) } : {}),
      ...(d.chance(0.2) ? { naval: true } : {}),
      ...(d.chance(0.3) ? { hq: d.int(0, 2) } : {}),
    },
  };
}

/** Normandy '44: turns, attacks declared and resolved, Determined Defense, strafing, isolation, reinforcements. */
export const normandy44Walk: Walk = {
  game: fc.constant({ options: {}, material: null }),
  next(state: Normandy44State, d, _material, seq) {
    const open = Object.entries(state.open);
    // Half the time, a Determined Defense still to decide is decided.
    const standing = open.filter(([, a]) => a.determinedDefense === 'open');
    const type = standing.length && d.chance(0.5) ? 'DeterminedDefense' : d.pick(TYPES);
    const target = open.length && d.chance(0.85) ? d.pick(open) : undefined;
    const attackId = target?.[0] ?? (state.attackIds.length && d.chance(0.5) ? d.pick(state.attackIds) : `x${d.int(1, 3)}`);
    const anyone = () => d.pick([...SIDES, 'organizer']);
    switch (type) {
      case 'StartTurn':
        return { actor: anyone(), type, payload: { turn: d.chance(0.85) ? state.turn + 1 : d.int(1, 4), ...(d.chance(0.7) ? { reinforcementPoints: d.int(0, 12) } : {}) } };
      case 'DeclareAttack':
        return { actor: anyone(), type, payload: declaration(d, d.chance(0.9) ? `a${seq}` : attackId) };
      case 'ResolveAttack':
        return { actor: target && d.chance(0.85) ? target[1].attacker : anyone(), type, payload: { attackId } };
      case 'DeterminedDefense':
      case 'DeclineDeterminedDefense': {
        const actor = target && d.chance(0.85) ? other(target[1].attacker) : anyone();
        if (type === 'DeclineDeterminedDefense') return { actor, type, payload: { attackId } };
        const defenders = target?.[1].declaration.defenders ?? [];
        const leadUnitId = defenders.length && d.chance(0.85) ? d.pick(defenders).unitId : 'nobody';
        const modifier = d.pick([{}, { troopQuality: d.int(-3, 3) }, { armorComparison: d.int(-6, 6) }, { troopQuality: 1, armorComparison: 1 }]);
        return { actor, type, payload: { attackId, leadUnitId, ...modifier, ...(d.chance(0.3) ? { defensiveSupport: true } : {}) } };
      }
      case 'Strafe':
        return { actor: anyone(), type, payload: { targetUnitId: 'pz-lehr', ...(d.chance(0.3) ? { flak: true } : {}), ...(d.chance(0.3) ? { strategicMovement: true } : {}) } };
      case 'IsolationAttrition':
        return { actor: anyone(), type, payload: { unitId: `u${d.int(1, 3)}`, canTraceSupply: d.chance(0.5), troopQuality: d.int(-3, 3) } };
      case 'PurchaseReinforcements': {
        const items = Array.from({ length: d.int(1, 3) }, () => {
          const kind = d.pick(Object.keys(REINFORCEMENT_COSTS));
          return kind === 'supply-point' ? { kind, army: d.pick(['omaha', 'arromanches']) } : { kind };
        });
        return { actor: anyone(), type, payload: { items } };
      }
      default:
        return { actor: anyone(), type, payload: { army: d.pick(['omaha', 'arromanches']) } };
    }
  },
  rolling: ['ResolveAttack', 'DeterminedDefense', 'Strafe', 'IsolationAttrition'],
};
