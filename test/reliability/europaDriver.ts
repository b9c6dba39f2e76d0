import { ORGANIZER, type CommandDriver, type RulesetDriver, type Step, type View } from './hostileDrivers';
import type { Path } from './hostileMutations';
import { p47Fire } from '../domain/rulesets/europa/harness';
import { withGameCommands } from './gameCommandDrivers';

/**
 * How to play europa (domain/rulesets/europa, docs/rulesets/europa.md) so that hostile
 * values reach its rules: AA fire of rule 37L on an AA table given as data, and the
 * fortifications of rule 30A4. Used by hostileInput.test.ts through DRIVERS.
 */

const step = (actor: string, type: string, payload: Record<string, unknown> = {}, extra: Partial<Step> = {}): Step => ({ actor, type, payload, ...extra });


// ---- the AA fire table ----

// INVENTED, not Europa's AA fire table: the shape rule 37L asks of one (threshold columns from
// "-1" and "0", 2d6, shifts past the left end as die modifiers, past the right end lost, results
// "-" or a whole number), every cell its own code, so that a hostile code can be put in a cell
// and in the result it names (optionMirrors). Every cell is known: any fire the driver sends resolves.
const AA_LABELS = ['-1', '0', '1', '2', '3', '4', '5', '7', '10', '14', '17', '20'];
const AA_ROLLS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
const aaCode = (n: number) => (n === 0 ? '-' : String(n));
const aaCell = (row: number, column: number) => row * AA_LABELS.length + column;
export const HOSTILE_AA_TABLE = {
  format: 'arbiter-table/1',
  id: 'hostile-input-aa',
  title: 'Invented AA table for the hostile-input run',
  source: 'invented for the reliability tests, not the published table of rule 37L',
  example: false,
  dice: '2d6',
  columns: { kind: 'threshold', labels: AA_LABELS, landing: 'defender', belowFirst: 'refuse', aboveLast: 'last-column', shiftPastLeft: 'die-modifier', shiftPastRight: 'clamp' },
  rows: AA_ROLLS.map((roll) => (roll === 2 ? { atMost: 2 } : roll === 12 ? { atLeast: 12 } : { roll })),
  rowsOffTable: 'clamp',
  results: Array.from({ length: AA_ROLLS.length * AA_LABELS.length }, (_, n) => ({
    code: aaCode(n),
    description: n === 0 ? 'no effect' : `${n} defence factors affected`,
    effects: [{ effect: n === 0 ? 'no-effect' : 'df-affected', side: 'defender', value: n, note: 'invented' }],
  })),
  cells: AA_ROLLS.map((_, row) => AA_LABELS.map((_, column) => aaCode(aaCell(row, column)))),
};

/** A cell and the result it names hold the same code; `at` is where the table sits (a slot label), `path` its path. */
const aaMirrors = (at: string, path: Path): Record<string, Path[]> => {
  const mirrors: Record<string, Path[]> = {};
  for (let row = 0; row < AA_ROLLS.length; row++) {
    for (let column = 0; column < AA_LABELS.length; column++) {
      const n = aaCell(row, column);
      mirrors[`${at}.cells[${row}][${column}]`] = [[...path, 'results', n, 'code']];
      mirrors[`${at}.results[${n}].code`] = [[...path, 'cells', row, column]];
    }
  }
  return mirrors;
};

// ---- AA fire (37L) ----

/** Ground support over a hex, every optional field set: the firing unit names the target hex (mirrored). */
const gsFire = (fresh: () => string) => {
  const hex = `hex ${fresh()}`;
  return {
    fireId: `GS ${fresh()}`,
    hex,
    mission: 'ground-support',
    date: 'Jun II 44',
    night: false,
    nationality: 'german',
    germanOrAlliedShift: true,
    aa: [
      { unitId: `Flak ${fresh()}`, aa: 11, hex, naval: false, cargo: false, light: false },
      { unitId: `light ${fresh()}`, aa: 2, light: true },
    ],
    airUnits: [
      { unitId: `P-47 ${fresh()}`, type: 'F', df: 9, codeT: false, mission: 'ground-support', dedicated: true },
      { unitId: `B-26 ${fresh()}`, type: 'B', df: 5, mission: 'bombing' },
      { unitId: `P-47 ${fresh()}`, type: 'F', df: 9 },
      { unitId: `P-51 ${fresh()}`, type: 'HF', df: 6, mission: 'escort' },
    ],
  };
};
const gsMirrors: Record<string, Path[]> = { hex: [['aa', 0, 'hex']], 'aa[0].hex': [['hex']] };

/** DAS: the AA of adjacent hexes averaged; the first unit stands across prohibited terrain (mirrored). */
const dasFire = (fresh: () => string) => {
  const across = `hex ${fresh()}`;
  return {
    fireId: `DAS ${fresh()}`,
    hex: `hex ${fresh()}`,
    mission: 'das',
    date: 'Mar I 43',
    night: false,
    nationality: 'allied',
    germanOrAlliedShift: false,
    aa: [
      { unitId: `Bofors ${fresh()}`, aa: 5, hex: across, naval: false, cargo: false, light: false },
      { unitId: `AA ${fresh()}`, aa: 4, hex: `hex ${fresh()}` },
      { unitId: `AA ${fresh()}`, aa: 2, hex: `hex ${fresh()}` },
    ],
    prohibitedHexes: [across],
    airUnits: [
      { unitId: `Ju88 ${fresh()}`, type: 'B', df: 5, codeT: true, mission: 'das', dedicated: false },
      { unitId: `Bf109 ${fresh()}`, type: 'F', df: 7 },
    ],
  };
};
const dasMirrors: Record<string, Path[]> = { 'prohibitedHexes[0]': [['aa', 0, 'hex']], 'aa[0].hex': [['prohibitedHexes', 0]] };

/**
 * Harassment at night in 1940 by Soviet AA: every shift of other Europa games, past the left
 * end (a die modifier). The first unit names the target hex (mirrored), the second stands at
 * sea (mirrored).
 */
const harassmentFire = (fresh: () => string) => {
  const hex = `hex ${fresh()}`;
  const sea = `hex ${fresh()}`;
  return {
    fireId: `harassment ${fresh()}`,
    hex,
    mission: 'harassment',
    date: 'Jun I 40',
    night: true,
    nationality: 'soviet',
    germanOrAlliedShift: false,
    aa: [
      { unitId: `AA ${fresh()}`, aa: 4, hex, naval: false, cargo: false, light: false },
      { unitId: `boat ${fresh()}`, aa: 6, hex: sea },
      { unitId: `AA ${fresh()}`, aa: 7, hex: `hex ${fresh()}` },
    ],
    seaHexes: [sea],
    airUnits: [
      { unitId: `Wellington ${fresh()}`, type: 'HB', df: 3, codeT: false, mission: 'harassment', dedicated: true },
      { unitId: `Hurricane ${fresh()}`, type: 'F', df: 4, mission: 'escort' },
    ],
  };
};
const harassmentMirrors: Record<string, Path[]> = { ...gsMirrors, 'seaHexes[0]': [['aa', 1, 'hex']] };

/** Naval units bombed in port: one naval unit per air unit at most, plus the port's AA. */
const navalFire = (fresh: () => string) => ({
  fireId: `port ${fresh()}`,
  hex: `port ${fresh()}`,
  mission: 'naval-in-port',
  date: 'Nov II 42',
  night: false,
  nationality: 'minor',
  germanOrAlliedShift: false,
  aa: [
    { unitId: `cruiser ${fresh()}`, aa: 3, naval: true, cargo: false, light: false },
    { unitId: `port AA ${fresh()}`, aa: 5 },
  ],
  airUnits: [
    { unitId: `Beaufort ${fresh()}`, type: 'LB', df: 4, codeT: true, mission: 'naval', dedicated: false },
    { unitId: `Swordfish ${fresh()}`, type: 'T', df: 3 },
  ],
});

// ---- fortifications (30A4) ----

interface SiteView {
  site: string;
  kind: string;
  owner: string;
  condition: string;
  improvement: unknown;
}
const fort = (actor: string, payload: Record<string, unknown>, extra: Partial<Step> = {}) => step(actor, 'FortificationEvent', payload, extra);
const sitesOf = (v: View) => (v.state.sites ?? []) as SiteView[];
const nextTurn = (v: View) => fort(ORGANIZER, { action: 'turn', turn: v.state.turn + 1 });
/** Westwall hexes are on the map from the start of play (placed before turn 1): the improvements happen on these. */
const WESTWALL = ['Aachen', 'Trier', 'Saarbrücken', 'Pirmasens', 'Kleve', 'Monschau'];
/** What may be placed at any time and removed: the traces cases leave, cleared before the next one. */
const REMOVABLE = ['fort', 'fortified-area', 'port-fortification'];

/** The start of play: the map fortifications (every kind that exists only from the start), then turn 1. */
const startOfPlay = (): Step[] => [
  ...WESTWALL.map((site, i) => fort(ORGANIZER, { action: 'place', site, kind: 'westwall', owner: 'axis', condition: 'unimproved', level: (i % 3) + 1 })),
  fort(ORGANIZER, { action: 'place', site: 'Metz', kind: 'fortress', owner: 'axis', condition: 'improved' }),
  fort(ORGANIZER, { action: 'place', site: 'Toul', kind: 'fortress', owner: 'allied', condition: 'unimproved' }),
  fort(ORGANIZER, { action: 'place', site: 'Hackenberg', kind: 'ouvrage', owner: 'axis' }),
  fort(ORGANIZER, { action: 'place', site: '0912/0913', kind: 'fortified-hexside', owner: 'axis' }),
  fort(ORGANIZER, { action: 'turn', turn: 1 }),
];

/**
 * Keeps a Westwall improvement under way (begun on a free hex; a hex improved already is
 * taken by the Allies, unimproved in their initial phase and retaken): turns then complete
 * improvements, and the emergency restoration has hexes to restore.
 */
function westwallUnderWay(v: View): Step[] {
  const pool = sitesOf(v).filter((s) => WESTWALL.includes(s.site));
  if (pool.some((s) => s.improvement)) return [];
  // Quick construction by the unit rules version 3 allows: a construction brigade of defense 2 or more.
  const quick = v.state.turn % 2 === 0;
  const begin = (site: string) => fort('axis', { action: 'begin-improvement', site, quickConstruction: quick, ...(quick ? { builder: { unitId: 'Bau-Bde 1', construction: true, defense: 2 } } : {}) });
  const free = pool.find((s) => s.owner === 'axis' && s.condition === 'unimproved');
  if (free) return [begin(free.site)];
  const hex = pool[0];
  if (!hex) return [];
  const steps: Step[] = [];
  if (hex.owner === 'axis') steps.push(fort('allied', { action: 'gain', site: hex.site, side: 'allied' }));
  if (hex.condition === 'improved') {
    // The view shows the phase begun last: a new turn, so that the Allied initial phase may begin.
    if (v.state.phase !== null) steps.push(nextTurn(v));
    steps.push(fort('allied', { action: 'initial-phase', side: 'allied' }));
  }
  steps.push(fort('axis', { action: 'gain', site: hex.site, side: 'axis' }), begin(hex.site));
  return steps;
}

/**
 * The game where every action means something: the start of play done, the traces of earlier
 * cases cleared, an improvement under way. Once, what only the map fortifications do (an
 * improved fortress gained by the enemy, an ouvrage destroyed); after an accepted case, while
 * an emergency restoration is on, the next Axis initial phase, so that it completes.
 */
function fortificationArm(v: View, lastAccepted: boolean): Step[] {
  if (v.state.turn === 0) return startOfPlay();
  const sites = sitesOf(v);
  const steps = sites.filter((s) => REMOVABLE.includes(s.kind)).map((s) => fort(ORGANIZER, { action: 'destroy', site: s.site }));
  if (sites.some((s) => s.site === 'Metz' && s.owner === 'axis')) steps.push(fort('allied', { action: 'gain', site: 'Metz', side: 'allied' }));
  if (sites.some((s) => s.site === 'Hackenberg' && s.condition !== 'destroyed')) steps.push(fort('allied', { action: 'destroy', site: 'Hackenberg' }));
  const restoring = v.state.emergencyRestoration && v.state.emergencyRestoration.status !== 'completed';
  if (lastAccepted && restoring) {
    steps.push(...phaseMayBegin(v), fort('axis', { action: 'initial-phase', side: 'axis' }));
    // A new turn may complete an improvement, and the Axis phase restores the Westwall: what is under way is known after these.
    return steps;
  }
  return [...steps, ...westwallUnderWay(v)];
}

/** An initial phase may begin: none begun yet this turn (the view shows only the last one), else a new turn first. */
const phaseMayBegin = (v: View): Step[] => (v.state.phase === null ? [] : [nextTurn(v)]);
/** The Axis initial phase is the one begun last (the emergency restoration is declared in it). */
const inAxisPhase = (v: View): Step[] => {
  if (v.state.phase === 'axis') return [];
  return [...phaseMayBegin(v), fort('axis', { action: 'initial-phase', side: 'axis' })];
};

/** A fortification placed first at the site, under the hostile value when the case tests `site`. */
const placedFirst = (site: string, kind: string, owner: string) => (ref?: string) => [
  fort(ORGANIZER, { action: 'place', site, kind, owner }, ref === 'site' ? { hostileAt: ['site'] } : {}),
];

/**
 * One shape per action but begin-improvement, which the arm sends as a valid step on the
 * Westwall hexes above. Its site must name a Westwall hex, and those are placed only before
 * turn 1: no step before a case can put one under a hostile name once play has begun, and one
 * placed at the start would keep that name for good, where the place and destroy shapes need
 * it free. As refSlots and namedAtCreation hold for the whole command, an ordinary hostile site
 * would be expected to be taken (201) and get 422 (no such Westwall hex).
 * No action depends on a die: no diceDecides.
 */
const fortificationEvent: CommandDriver = {
  // Gain, loss and destroy name a fortification placed just before them, under the same hostile name.
  refSlots: ['site'],
  arm: fortificationArm,
  shapes: (v, fresh) => {
    const gained = `gain ${fresh()}`;
    const lost = `loss ${fresh()}`;
    const destroyed = `destroy ${fresh()}`;
    return [
      { actor: ORGANIZER, payload: { action: 'place', site: `fort ${fresh()}`, kind: 'fort', owner: 'allied' } },
      // A fort is destroyed when the enemy gains its hex.
      { actor: 'allied', payload: { action: 'gain', site: gained, side: 'allied' }, before: placedFirst(gained, 'fort', 'axis') },
      { actor: 'axis', payload: { action: 'loss', site: lost, side: 'axis' }, before: placedFirst(lost, 'fortified-area', 'axis') },
      { actor: 'allied', payload: { action: 'destroy', site: destroyed }, before: placedFirst(destroyed, 'port-fortification', 'allied') },
      // Once per game: the first one declares it; the Axis initial phases the other shapes begin carry it on and complete it.
      { actor: 'axis', payload: { action: 'emergency-restoration', alliedGroundUnitIn: 'benelux' }, before: () => inAxisPhase(v) },
      { actor: ORGANIZER, payload: { action: 'turn', turn: v.state.turn + 1 } },
      { actor: 'allied', payload: { action: 'initial-phase', side: 'allied' }, before: () => phaseMayBegin(v) },
      { actor: 'axis', payload: { action: 'initial-phase', side: 'axis' }, before: () => phaseMayBegin(v) },
    ];
  },
};

// ---- the driver ----


/** Names for the inputs of /evaluate, each its own. */
const counter = () => {
  let n = 0;
  return () => `e${++n}`;
};

export const europaDriver: RulesetDriver = withGameCommands({
  ruleset: 'europa',
  options: { aaTable: HOSTILE_AA_TABLE, otherEuropaGames: true },
  optionMirrors: aaMirrors('aaTable', ['aaTable']),
  commands: {
    AAFire: {
      // Every refusal comes before the first die, and a fire needs no turn or phase: any game state will do.
      shapes: (_v, fresh) => [
        { actor: 'axis', payload: gsFire(fresh), mirrors: gsMirrors },
        { actor: 'allied', payload: dasFire(fresh), mirrors: dasMirrors },
        { actor: 'axis', payload: harassmentFire(fresh), mirrors: harassmentMirrors },
        { actor: ORGANIZER, payload: navalFire(fresh) },
      ],
    },
    FortificationEvent: fortificationEvent,
  },
  procedures: {
    aaFire: {
      // The mirrors hold for both inputs: in each, the first firing unit names the target hex.
      inputs: [{ ...gsFire(counter()), table: HOSTILE_AA_TABLE }, harassmentFire(counter())],
      mirrors: { ...harassmentMirrors, ...aaMirrors('table', ['table']) },
    },
    fortificationEffects: {
      inputs: [
        {
          into: 'fortress-improved',
          across: 'unimproved',
          attackers: [
            { unitId: '2 Armd', strength: 9, kind: 'engineer', acrossFortifiedHexside: true },
            { strength: 4, kind: 'other' },
          ],
          groundSupport: 6,
          weather: 'mud',
          usAndUk: true,
        },
      ],
    },
  },
  proceed: (v) => [nextTurn(v), step('axis', 'AAFire', p47Fire({ fireId: 'after the fuzzing' }))],
});
