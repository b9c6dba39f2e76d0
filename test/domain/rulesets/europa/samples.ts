import type { Step } from '../../../support/rulesetHarness';
import { p47Fire } from './harness';

/** Material for the shared tests (event schemas, player strings, the reliability drivers): no tests here. */

const fort = (payload: Record<string, unknown>, actor = 'organizer'): Step => [actor, 'FortificationEvent', payload];

/** A game (with TEST_AA_TABLE as options.aaTable) reaching every event type the ruleset publishes. */
export const SCRIPT: Step[] = [
  fort({ action: 'place', site: '0912', kind: 'fort', owner: 'axis' }),
  fort({ action: 'place', site: 'Metz', kind: 'fortress', owner: 'axis', condition: 'improved' }),
  fort({ action: 'place', site: 'Aachen', kind: 'westwall', owner: 'axis', level: 2 }),
  fort({ action: 'place', site: 'Trier', kind: 'westwall', owner: 'axis', level: 1 }),
  fort({ action: 'turn', turn: 1 }),
  // Rules version 3 checks a builder named for quick construction (a construction brigade of defense 2 or more); earlier versions record it unchecked.
  fort({ action: 'begin-improvement', site: 'Trier', quickConstruction: true, builder: { unitId: 'Bau-Bde 1', construction: true, defense: 2 } }, 'axis'),
  fort({ action: 'begin-improvement', site: 'Aachen' }, 'axis'),
  fort({ action: 'initial-phase', side: 'axis' }, 'axis'),
  fort({ action: 'emergency-restoration', alliedGroundUnitIn: 'benelux' }, 'axis'),
  ['axis', 'AAFire', p47Fire(), [4, 4, 1, 1, 1]],
  ['allied', 'AAFire', p47Fire({ fireId: 'night', night: true, germanOrAlliedShift: false, nationality: 'allied', date: 'Jun I 43', aa: [{ unitId: 'Bofors', aa: 2 }], airUnits: [{ unitId: 'Ju88', type: 'B', df: 5 }] }), [1, 1]],
  fort({ action: 'gain', site: '0912', side: 'allied' }, 'allied'),
  fort({ action: 'loss', site: 'Metz', side: 'axis' }, 'axis'),
  fort({ action: 'gain', site: 'Trier', side: 'allied' }, 'allied'),
  fort({ action: 'initial-phase', side: 'allied' }, 'allied'),
  fort({ action: 'turn', turn: 2 }),
  fort({ action: 'initial-phase', side: 'axis' }, 'axis'),
  fort({ action: 'turn', turn: 3 }),
  fort({ action: 'initial-phase', side: 'axis' }, 'axis'),
  fort({ action: 'gain', site: 'Aachen', side: 'allied' }, 'allied'),
  fort({ action: 'initial-phase', side: 'allied' }, 'allied'),
];

/** SCRIPT with one more Westwall hex, "Saar", improved with quick construction from turn 1 to turn 3: a turn completes an improvement. */
export const SCRIPT_WITH_COMPLETION: Step[] = [
  fort({ action: 'place', site: 'Saar', kind: 'westwall', owner: 'axis', level: 3 }),
  ...SCRIPT.slice(0, 5),
  fort({ action: 'begin-improvement', site: 'Saar', quickConstruction: true, builder: { unitId: 'Bau-Bde 2', construction: true, defense: 2 } }, 'axis'),
  ...SCRIPT.slice(5),
];

/** Rules version 3 (with TEST_AA_TABLE): a fort built with quick construction during play, and a harassment fired on each harassing unit. */
export const SCRIPT_V3: Step[] = [
  fort({ action: 'turn', turn: 1 }),
  fort({ action: 'place', site: '0913', kind: 'fort', owner: 'allied', quickConstruction: true, builder: { unitId: '1 Constr Bde', construction: true, defense: 2 } }, 'allied'),
  ['axis', 'AAFire', p47Fire({ fireId: 'harassment', mission: 'harassment', germanOrAlliedShift: undefined, airUnits: [{ unitId: 'B-26 1', type: 'B', df: 4 }, { unitId: 'B-26 2', type: 'B', df: 4 }] }), [3, 3, 2, 2]],
  fort({ action: 'turn', turn: 2 }),
];

export const fire = p47Fire({ aa: [{ unitId: 'Flak', aa: 11, hex: '2708' }], prohibitedHexes: ['2709'], seaHexes: ['2710'] });
/** A valid payload of each command and procedure, with every optional id field filled in. */
export const europaSamples = {
  commands: { AAFire: fire, FortificationEvent: { action: 'place', site: '0912', kind: 'fort', owner: 'axis', quickConstruction: true, builder: { unitId: '1 Constr Bde', construction: true, defense: 2 } } },
  procedures: {
    aaFire: fire,
    fortificationEffects: { into: 'fort', attackers: [{ unitId: '2 Armd', strength: 6 }] },
  },
};
export const europaFreeText: Record<string, string[]> = {
  'europa AAFire': ['fireId', 'hex', 'aa[0].unitId', 'aa[0].hex', 'airUnits[0].unitId', 'airUnits[1].unitId', 'airUnits[2].unitId', 'airUnits[3].unitId', 'prohibitedHexes[0]', 'seaHexes[0]'],
  'europa FortificationEvent': ['site', 'builder.unitId'],
  'europa procedure aaFire': ['fireId', 'hex', 'aa[0].unitId', 'aa[0].hex', 'airUnits[0].unitId', 'airUnits[1].unitId', 'airUnits[2].unitId', 'airUnits[3].unitId', 'prohibitedHexes[0]', 'seaHexes[0]'],
  'europa procedure fortificationEffects': ['attackers[0].unitId'],
};

