import fc from 'fast-check';
import type { Memoir44State } from '../../../../domain/rulesets/memoir44/state';
import type { Draw, Walk } from '../refusesBeforeDice';

const TYPES = ['infantry', 'armor', 'artillery', 'cavalry', 'sniper'] as const;
const TERRAIN = ['clear', 'forest', 'town', 'hedgerow', 'hill', 'bunker', 'hedgehog', 'sandbags', 'wire'];
const SIZE = { infantry: 4, armor: 3, artillery: 2, cavalry: 4, sniper: 1 };
const COMMANDS = ['Battle', 'Battle', 'Battle', 'Battle', 'Battle', 'TakeGround', 'TakeGround', 'EndTurn', 'CardRoll', 'CardRoll'];

function unit(d: Draw, unitId: string, type: (typeof TYPES)[number]) {
  const special = d.chance(0.3);
  return {
    unitId,
    type,
    // Mostly within the type's size (special armor 4); one in ten up to the schema's 6.
    figures: type === 'sniper' ? 1 : d.chance(0.9) ? d.int(1, type === 'armor' && special ? 4 : SIZE[type]) : d.int(1, 6),
    ...(special ? { special: true } : {}),
    ...(d.chance(0.6) ? { terrain: d.pick(TERRAIN) } : {}),
  };
}

/** Memoir '44 (d6): battles of the active side, close assaults that take ground and overrun, turns, card rolls. */
export const memoir44Walk: Walk = {
  game: fc
    .record({ firstSide: fc.constantFrom('allies', 'axis'), rulesVersion: fc.constantFrom(undefined, 1, 2) })
    .map(({ firstSide, rulesVersion }) => ({ options: { firstSide, ...(rulesVersion ? { rulesVersion } : {}) }, material: null })),
  next(state: Memoir44State, d) {
    const type = d.pick(COMMANDS);
    const actor = d.chance(0.85) ? state.activeSide : d.pick(['allies', 'axis', 'organizer']);
    const last = state.lastBattle;
    switch (type) {
      case 'Battle': {
        const again = last !== null && d.chance(0.3);
        const attacker = unit(d, again ? last.unitId : `u${d.int(1, 6)}`, again && d.chance(0.9) ? last.type : d.pick(TYPES));
        const target = { ...unit(d, `t${d.int(1, 6)}`, d.pick(TYPES)), ...(d.chance(0.3) ? { uphill: true } : {}) };
        const range = d.chance(0.5) ? 1 : d.chance(0.9) ? d.int(2, 6) : d.int(7, 99);
        const adjacent = d.chance(0.2) ? { adjacentEnemyIds: [d.chance(0.7) ? target.unitId : 'other'] } : {};
        return { actor, type, payload: { attacker, target, range, ...(d.chance(0.2) ? { starsHit: true } : {}), ...adjacent } };
      }
      case 'TakeGround':
        return { actor, type, payload: { unitId: last && d.chance(0.8) ? last.unitId : `u${d.int(1, 6)}` } };
      case 'CardRoll':
        return { actor, type, payload: { dice: d.int(1, 10), purpose: 'recon' } };
      default:
        return { actor, type, payload: {} };
    }
  },
  rolling: ['Battle', 'CardRoll'],
};
