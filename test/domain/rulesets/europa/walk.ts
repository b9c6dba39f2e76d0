import fc from 'fast-check';
import { FIRE_MISSIONS } from '../../../../domain/rulesets/europa/aaStrength';
import { AIR_TYPES, UNIT_MISSIONS } from '../../../../domain/rulesets/europa/allocation';
import type { Draw, Walk } from '../refusesBeforeDice';
import { TEST_AA_TABLE } from './harness';
import { SCRIPT, SCRIPT_V3 } from './samples';

const MONTHS = ['Jan', 'Jun', 'Dec'];
const FORTIFICATIONS = [...SCRIPT, ...SCRIPT_V3].filter(([, type]) => type === 'FortificationEvent').map(([, , payload]) => payload);

function aaFire(d: Draw, seq: number) {
  const mission = d.pick(FIRE_MISSIONS);
  return {
    fireId: `fire ${seq}`,
    hex: '2708',
    mission,
    date: `${d.pick(MONTHS)} ${d.pick(['I', 'II'])} ${d.int(39, 45)}`,
    ...(d.chance(0.2) ? { night: true } : {}),
    nationality: d.pick(['german', 'allied', 'soviet', 'minor', 'other']),
    ...(d.chance(0.4) ? { germanOrAlliedShift: d.chance(0.5) } : {}),
    aa: Array.from({ length: d.int(1, 4) }, (_, i) => ({
      unitId: `aa${i}`,
      aa: d.int(0, 12),
      ...(d.chance(0.3) ? { light: true } : {}),
      ...(mission === 'das' || (mission === 'harassment' && i > 0) ? { hex: d.pick(['A', 'B']) } : {}),
      ...(mission.startsWith('naval') && i % 2 === 0 ? { naval: true } : {}),
    })),
    airUnits: Array.from({ length: d.int(1, 6) }, (_, i) => ({
      unitId: `air${i}`,
      type: d.pick(AIR_TYPES),
      df: d.int(0, 12),
      ...(i > 0 && d.chance(0.2) ? { mission: d.chance(0.7) ? 'escort' : d.pick(UNIT_MISSIONS) } : {}),
      ...(d.chance(0.2) ? { dedicated: true } : {}),
      ...(d.chance(0.2) ? { codeT: true } : {}),
    })),
  };
}

/** Europa: AA fires of every mission on the invented test table or the example table, between fortification events. */
export const europaWalk: Walk = {
  game: fc
    .record({ testTable: fc.nat({ max: 4 }), rulesVersion: fc.constantFrom(undefined, 1, 2, 3), otherEuropaGames: fc.boolean() })
    .map(({ testTable, rulesVersion, otherEuropaGames }) => ({
      // The example table knows only the rule's worked examples: most fires on it are refused before the dice.
      options: { ...(testTable > 0 ? { aaTable: TEST_AA_TABLE } : {}), otherEuropaGames, ...(rulesVersion ? { rulesVersion } : {}) },
      material: null,
    })),
  next(_state, d, _material, seq) {
    const actor = d.pick(['axis', 'allied', 'organizer']);
    if (d.chance(0.6)) return { actor, type: 'AAFire', payload: aaFire(d, seq) };
    return { actor, type: 'FortificationEvent', payload: d.pick(FORTIFICATIONS) };
  },
  rolling: ['AAFire'],
};
