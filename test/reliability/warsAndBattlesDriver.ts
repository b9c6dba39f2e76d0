import { TEST_COMMANDERS, TEST_TABLES, TEST_TERRAIN } from '../domain/rulesets/warsandbattles/harness';
import type { CommandDriver, RulesetDriver, Step, View } from './hostileDrivers';
import type { Path } from './hostileMutations';
import { withGameCommands } from './gameCommandDrivers';

/**
 * The hostile-input driver of wars-and-battles (hostileInput.test.ts). The units, the terrain
 * and the commanders are the game's from its creation: a command names them (so its unit
 * and terrain slots are `namedAtCreation`: another name is an unknown one, a 422), and the
 * free ids (attacks, hexes, bombardments) come from fresh(). Every unit a case leans on has
 * LP to spare and is healed between turns (Allied replenishment at EndTurn, Axis Replenish
 * in the Axis impulse), so that no valid case ever depends on an earlier die.
 */

// Copied from hostileDrivers.ts (step is not exported; ORGANIZER is copied so that this file
// imports only types from it, and the two files make no import cycle at run time).
const ORGANIZER = 'organizer';
const step = (actor: string, type: string, payload: Record<string, unknown> = {}, extra: Partial<Step> = {}): Step => ({ actor, type, payload, ...extra });

type Side = 'allied' | 'axis';
const FIRST: Side = 'axis';
const other = (side: Side): Side => (side === 'allied' ? 'axis' : 'allied');

interface UnitView {
  unitId: string;
  side: Side;
  lp: number;
  maxLp: number;
  out: string | null;
  attackedThisTurn: boolean;
  activatedInImpulse: number | null;
}

const unit = (unitId: string, side: Side, kind: string, extra: Record<string, unknown> = {}) => ({ unitId, side, kind, quality: 'veteran', maxLp: 99, ...extra });
/**
 * Rules version 2: a heavy bomber waits three turns between missions (10.3). The bomber is
 * chosen from the view before the arm's steps end the turn, so one seen free there may be
 * the only one; eight leave one free with two Allied bombardments a turn.
 */
const BOMBERS = Array.from({ length: 8 }, (_, i) => (i === 0 ? 'al-bomber' : `al-bomber-${i + 1}`));

/**
 * The units the cases lean on, each with a single value (fatigue costs a status level, never
 * the value) and 99 LP: the attacks land at 7:1 and 5:1, where the attacker loses nothing.
 */
const DRIVER_UNITS = [
  unit('ax-act', 'axis', 'infantry', { maxLp: 8, attack: 4, defence: 4 }),
  unit('ax-atk', 'axis', 'armored', { quality: 'elite', attack: 8, defence: 4 }),
  unit('ax-sup', 'axis', 'artillery', { attack: 0, defence: 1 }),
  unit('ax-def', 'axis', 'infantry', { attack: 2, defence: 1 }),
  unit('ax-art', 'axis', 'artillery', { attack: 0, defence: 1 }),
  unit('ax-tgt', 'axis', 'infantry', { attack: 2, defence: 2 }),
  unit('ax-rep', 'axis', 'infantry', { lp: 1, attack: 2, defence: 2 }),
  unit('ax-oos', 'axis', 'infantry', { attack: 2, defence: 2 }),
  unit('al-def', 'allied', 'infantry', { attack: 2, defence: 1 }),
  unit('al-atk', 'allied', 'armored', { attack: 5, defence: 4 }),
  unit('al-tgt', 'allied', 'infantry', { attack: 2, defence: 2 }),
  ...BOMBERS.map((id) => unit(id, 'allied', 'heavy-bomber')),
  unit('al-con', 'allied', 'infantry', { attack: 2, defence: 2 }),
  unit('al-bradley', 'allied', 'commander', { maxLp: 2, commander: TEST_COMMANDERS[0].commander }),
];

/** The first unit has every field a unit may have (only the first item of an array is fuzzed at creation). */
const FIRST_UNIT = {
  unitId: 'ax-tiger',
  side: 'axis',
  kind: 'armored',
  division: 'Panzer Lehr',
  quality: 'elite',
  maxLp: 12,
  lp: 10,
  statusLp: [3, 6, 9],
  energy: 90,
  attack: [6, 7, 8, 10],
  defence: [3, 4, 5, 6],
  tiger: true,
  outOfSupply: false,
  replenishable: true,
};

const UNITS = [FIRST_UNIT, ...DRIVER_UNITS];

const OPTIONS = {
  units: UNITS,
  tables: TEST_TABLES,
  terrain: TEST_TERRAIN,
  commanders: TEST_COMMANDERS,
  impulses: 2,
  firstSide: FIRST,
  activationPoints: { allied: 999, axis: 999 },
  replenishment: { allied: true, axisPointsPerTurn: 999 },
  zocRetreatLoss: 1,
  // Rules version 2: the sight of the Axis bombardment gives the turn's weather.
  weather: 'rain',
};

/**
 * Places of the options that must change with a slot: a cell and the result it names (every
 * cell holding that code), and a commander and the units that name it.
 */
function optionMirrors(): Record<string, Path[]> {
  const mirrors: Record<string, Path[]> = {};
  for (const [role, table] of Object.entries(TEST_TABLES)) {
    const cellsHolding = (code: string) => table.cells.flatMap((row, r) => row.flatMap((cell, c) => (cell === code ? [['tables', role, 'cells', r, c] as Path] : [])));
    const first = table.results[0].code;
    mirrors[`tables.${role}.results[0].code`] = cellsHolding(first);
    const corner = table.cells[0][0];
    const result = table.results.findIndex((x) => x.code === corner);
    mirrors[`tables.${role}.cells[0][0]`] = [['tables', role, 'results', result, 'code'], ...cellsHolding(corner).filter((p) => !(p[3] === 0 && p[4] === 0))];
  }
  const commander = TEST_COMMANDERS[0].commander;
  mirrors['commanders[0].commander'] = UNITS.flatMap((u, i) => ((u as { commander?: string }).commander === commander ? [['units', i, 'commander'] as Path] : []));
  return mirrors;
}

// ---- moving the game on, from its view ----

const unitsOf = (v: View): UnitView[] => v.state.units;
/** A heavy bomber not waiting between missions (the view's unavailable list, rules version 2). */
const freeBomber = (v: View) => BOMBERS.find((id) => !(v.state.unavailable ?? []).some((u: { unitId: string }) => u.unitId === id)) ?? BOMBERS[0];
const unitOf = (v: View, id: string) => unitsOf(v).find((u) => u.unitId === id);

/** The impulse after `side`'s part of `impulse`: the other side's, the next impulse, or none (EndTurn next). */
function nextImpulse(v: View, side: Side, impulse: number): [Side | null, number] {
  if (side === FIRST) return [other(FIRST), impulse];
  return impulse < v.state.impulses ? [FIRST, impulse + 1] : [null, impulse];
}

/** The open attack resolved, by its attacker. */
const resolveOpen = (v: View): Step[] => (v.state.openAttack ? [step(v.state.openAttack.attacker, 'ResolveAttack', { attackId: v.state.openAttack.attackId })] : []);

/** Every impulse left ended: EndTurn comes next. */
function endImpulses(v: View): Step[] {
  const steps: Step[] = [];
  let [side, impulse] = [v.state.phasing as Side | null, v.state.impulse as number];
  while (side !== null) {
    steps.push(step(side, 'EndImpulse'));
    [side, impulse] = nextImpulse(v, side, impulse);
  }
  return steps;
}

/** Axis units the cases wear down, given their LP back (Replenish, in the Axis impulse of a new turn). */
const HEALED = ['ax-def', 'ax-tgt'];
function heal(v: View): Step[] {
  const units = HEALED.map((id) => unitOf(v, id)).filter((u): u is UnitView => !!u && !u.out && u.lp < u.maxLp);
  return units.length ? [step('axis', 'Replenish', { units: units.map((u) => ({ unitId: u.unitId, lp: u.maxLp - u.lp })) })] : [];
}

/**
 * Steps to `side`'s impulse with no open attack, where every unit of `ready` may still act
 * (in the game, not attacked this turn, not activated in an earlier impulse); through a new
 * turn when the units are used up.
 */
function prepare(v: View, side: Side, ready: readonly string[], extraReady: (u: UnitView) => boolean = () => true): Step[] {
  const open = resolveOpen(v);
  const usable = (impulse: number) => (id: string) => {
    const u = unitOf(v, id);
    return !!u && !u.out && !u.attackedThisTurn && (u.activatedInImpulse === null || u.activatedInImpulse === impulse) && extraReady(u);
  };
  // In this turn?
  const walk: Step[] = [];
  let [phasing, impulse] = [v.state.phasing as Side | null, v.state.impulse as number];
  while (phasing !== null && phasing !== side) {
    walk.push(step(phasing, 'EndImpulse'));
    [phasing, impulse] = nextImpulse(v, phasing, impulse);
  }
  if (phasing === side && ready.every(usable(impulse))) return [...open, ...walk];
  // A new turn: the Axis impulse first, where the worn units are healed.
  const turn = [...open, ...endImpulses(v), step(ORGANIZER, 'EndTurn'), ...heal(v)];
  return FIRST === side ? turn : [...turn, step(FIRST, 'EndImpulse')];
}

// ---- payloads ----

/** The Axis attack: ax-atk (8) on al-def (1), 8:1, across a river (C-1): column 7:1, L1 from ax-sup. The attacker never loses. */
const axisAttack = (fresh: () => string) => ({
  attackId: fresh(),
  targetHex: fresh(),
  attackers: [{ unitId: 'ax-atk', hex: fresh() }],
  defenders: ['al-def'],
  support: [{ unitId: 'ax-sup', points: 5 }],
  terrain: 'hedgerows',
  across: ['river'],
  cherbourg: 'area',
});

/** The Allied attack: al-atk (5) on ax-def (1), 5:1 in hedgerows. The attacker never loses. */
const alliedAttack = (fresh: () => string, attackId: string) => ({
  attackId,
  targetHex: fresh(),
  attackers: [{ unitId: 'al-atk', hex: fresh() }],
  defenders: ['ax-def'],
  terrain: 'hedgerows',
});

const alliedAttackFirst = (fresh: () => string, attackId: string) => (ref?: string) => [
  step('allied', 'DeclareAttack', alliedAttack(fresh, attackId), ref === 'attackId' ? { hostileAt: ['attackId'] } : {}),
];

/** Every unit of the phasing side that may still act this impulse, as many as its points allow. */
function activatable(v: View): string[] {
  const s = v.state;
  if (!s.phasing) return [];
  const mine = unitsOf(v).filter((u) => u.side === s.phasing && !u.out && !u.attackedThisTurn);
  const active = mine.filter((u) => u.activatedInImpulse === s.impulse);
  const idle = mine.filter((u) => u.activatedInImpulse === null);
  const points = s.activationPointsLeft === null ? idle.length : Math.max(0, s.activationPointsLeft);
  return [...active, ...idle.slice(0, points)].slice(0, 50).map((u) => u.unitId);
}

export const warsAndBattlesDriver: RulesetDriver = withGameCommands({
  ruleset: 'wars-and-battles',
  options: OPTIONS,
  optionMirrors: optionMirrors(),
  commands: {
    Activate: {
      namedAtCreation: ['unitIds[0]'],
      arm: (v) => prepare(v, 'axis', ['ax-act']),
      shapes: () => [{ actor: 'axis', payload: { unitIds: ['ax-act'] } }],
    },
    DeclareAttack: {
      namedAtCreation: ['attackers[0].unitId', 'defenders[0]', 'support[0].unitId', 'terrain', 'across[0]'],
      // Each accepted attack is resolved, and the attacker's next one waits for a new turn.
      arm: (v) => prepare(v, 'axis', ['ax-atk', 'ax-sup']),
      shapes: (_v, fresh) => [{ actor: 'axis', payload: axisAttack(fresh) }],
    },
    ResolveAttack: {
      refSlots: ['attackId'],
      namedAtCreation: ['retreats[0].unitId'],
      arm: (v) => prepare(v, 'allied', ['al-atk']),
      shapes: (_v, fresh) => {
        const attackId = fresh();
        return [{ actor: 'allied', payload: { attackId, retreats: [{ unitId: 'ax-def', route: 'enemy-zoc' }] }, before: alliedAttackFirst(fresh, attackId) }];
      },
    },
    Bombard: {
      namedAtCreation: ['targets[0]', 'bombarders[0].unitId', 'antiAircraft[0].unitId'],
      // The Axis impulse, with the Allied bombers still free for the Allied impulse that follows it.
      arm: (v) => prepare(v, 'axis', ['ax-art', freeBomber(v)]),
      shapes: (v, fresh) => [
        {
          actor: 'axis',
          payload: { bombardmentId: fresh(), targetHex: fresh(), targets: ['al-tgt'], bombarders: [{ unitId: 'ax-art', points: 5, range: 2 }], sight: { distance: 2, viewDistance: 6, weather: 'rain' } },
        },
        {
          actor: 'allied',
          payload: {
            bombardmentId: fresh(),
            targetHex: fresh(),
            targets: ['ax-tgt'],
            bombarders: [{ unitId: freeBomber(v), points: 15 }],
            identification: 'identified',
            antiAircraft: [{ unitId: freeBomber(v), lp: 1 }],
          },
          // The Axis passes the impulse on: the Allies bomb in theirs.
          before: () => [step('axis', 'EndImpulse')],
        },
      ],
    },
    Replenish: {
      namedAtCreation: ['units[0].unitId'],
      arm: (v) => prepare(v, 'axis', ['ax-rep'], (u) => u.lp < u.maxLp),
      shapes: () => [{ actor: 'axis', payload: { units: [{ unitId: 'ax-rep', lp: 1 }] } }],
    },
    EndImpulse: {
      arm: (v) => [...resolveOpen(v), ...(v.state.phasing ? [] : [step(ORGANIZER, 'EndTurn')])],
      shapes: (v) => [{ actor: v.state.phasing ?? FIRST, payload: {} }],
    },
    EndTurn: {
      namedAtCreation: ['outOfSupply[0]', 'inContact[0]'],
      arm: (v) => [...resolveOpen(v), ...endImpulses(v)],
      shapes: () => [{ actor: ORGANIZER, payload: { outOfSupply: ['ax-oos'], inContact: ['al-con'] } }],
    },
  },
  procedures: {
    combat: {
      inputs: [
        {
          attackerSide: 'allied',
          attackers: [
            { unitId: 'Bradley', kind: 'commander', attack: 0, hex: '0811', lp: 2, commander: 'Bradley', tiger: false },
            { unitId: '29 Inf', kind: 'infantry', attack: 6, hex: '0811', lp: 8 },
          ],
          defenders: [
            { unitId: 'Rommel', kind: 'commander', defence: 1, lp: 2, commander: 'Rommel' },
            { unitId: '916 GR', kind: 'infantry', defence: 2, lp: 8 },
          ],
          support: [{ unitId: 'USS Texas', points: 10 }],
          terrain: 'hedgerows',
          across: ['river'],
          cherbourg: 'area',
          divisionalIntegrity: { attacker: true, defender: false },
          retreats: [{ unitId: '916 GR', route: 'enemy-zoc' }],
          terrainTable: [
            { terrain: 'hedgerows', c: 0 },
            { terrain: 'river', c: 1 },
          ],
          commanders: [
            { commander: 'Bradley', attack: { c: 1, l: 0 }, defence: { c: 0, l: 1 } },
            { commander: 'Rommel', attack: { c: 0, l: 2 }, defence: { c: 1, l: 0 } },
          ],
        },
      ],
      // A terrain or a commander named in the fight is one of the fight's own tables.
      mirrors: {
        terrain: [['terrainTable', 0, 'terrain']],
        'terrainTable[0].terrain': [['terrain']],
        'across[0]': [['terrainTable', 1, 'terrain']],
        'attackers[0].commander': [['commanders', 0, 'commander']],
        'commanders[0].commander': [['attackers', 0, 'commander']],
        'defenders[0].commander': [['commanders', 1, 'commander']],
      },
    },
    bombardment: { inputs: [{ points: 15, sight: { distance: 2, viewDistance: 6, weather: 'rain' }, targets: [{ unitId: '916 GR', defence: 2, lp: 8 }] }] },
    support: { inputs: [{ support: [{ unitId: 'USS Texas', points: 15 }] }] },
    identification: { inputs: [{ distance: 2, viewDistance: 6, weather: 'sunny' }] },
    'allied-replenishment': { inputs: [{ maxLp: 8, lp: 3, inContact: false }] },
  },
  // Any game, a hostile creation's too: the open attack resolved, the phasing side's units activated, every impulse ended, the next turn.
  proceed: (v) => {
    const ids = activatable(v);
    return [...resolveOpen(v), ...(ids.length ? [step(v.state.phasing, 'Activate', { unitIds: ids })] : []), ...endImpulses(v), step(ORGANIZER, 'EndTurn', { inContact: ids.slice(0, 1) })];
  },
});
