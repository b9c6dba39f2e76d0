import type { Path } from './hostileMutations';
import { europaDriver } from './europaDriver';
import { warsAndBattlesDriver } from './warsAndBattlesDriver';
import { withGameCommands } from './gameCommandDrivers';

/**
 * How to play each ruleset so that hostile values reach its rules: for every command a
 * valid payload, the valid steps that make it meaningful in the game as it is now (a
 * started turn, an open attack increment, a declared combat…), and how the game moves on.
 * Used by hostileInput.test.ts; a command of GET /rulesets without a driver fails the test.
 */
export const ORGANIZER = 'organizer';

/** The game as GET /games/{id} shows it. */
export interface View {
  version: number;
  sides: string[];
  state: any;
}

export interface Step {
  /** A side, or the organizer. */
  actor: string;
  /** The side the organizer acts for. */
  as?: string;
  type: string;
  payload: Record<string, unknown>;
  expectedVersion?: number;
  /** Where this step carries the hostile value of the case (such a step is a case too). */
  hostileAt?: Path;
}

export interface CaseShape {
  actor: string;
  payload: Record<string, unknown>;
  /** Steps sent just before the case; `ref` names the slot under test when it is one of the command's refSlots. */
  before?: (ref?: string) => Step[];
  /** Other places of the payload that must hold the same value as a slot (e.g. a target among the adjacent enemies). */
  mirrors?: Record<string, Path[]>;
}

export interface CommandDriver {
  /** Valid steps that make the command meaningful now; `lastAccepted` when the previous case was accepted. */
  arm?: (view: View, lastAccepted: boolean) => Step[];
  /** The valid shapes of the command (fresh() gives an unused id); the same structure whatever the view. */
  shapes: (view: View, fresh: () => string) => CaseShape[];
  /** Slots that name something the `before` steps introduce under the same hostile value. */
  refSlots?: string[];
  /** Slots holding a dice expression (they also get the huge dice modifiers). */
  diceExpressionSlots?: string[];
  /** Whether a valid case is accepted depends on an earlier die (so no outcome is expected of it). */
  diceDecides?: boolean;
  /** Slots naming what the game was created with (a table, a unit of the options): a name it was not created with is refused (422) like any unknown one. */
  namedAtCreation?: string[];
}

export interface RulesetDriver {
  ruleset: string;
  /** Valid options of POST /games, every one of them set. */
  options: Record<string, unknown>;
  /** Places of the options that must hold the same value as a slot (a cell and the result it names), by the slot's label in the options. */
  optionMirrors?: Record<string, Path[]>;
  commands: Record<string, CommandDriver>;
  /** Per procedure of /evaluate, valid inputs. */
  procedures: Record<string, { inputs: Record<string, unknown>[]; diceExpressionSlots?: string[]; mirrors?: Record<string, Path[]> }>;
  /** Valid steps that move the game on: the "can continue" check after the fuzzing. */
  proceed: (view: View) => Step[];
}

const step = (actor: string, type: string, payload: Record<string, unknown> = {}, extra: Partial<Step> = {}): Step => ({ actor, type, payload, ...extra });


// ---- dice ----

export const diceDriver: RulesetDriver = withGameCommands({
  ruleset: 'dice',
  options: { sides: ['red', 'blue'] },
  commands: {
    Roll: {
      diceExpressionSlots: ['dice'],
      shapes: (view, fresh) => [
        { actor: view.sides[0], payload: { dice: '2d6+1', purpose: `attack ${fresh()}` } },
        { actor: view.sides[1], payload: { dice: [{ count: 2, sides: 6 }], purpose: `defence ${fresh()}` } },
      ],
    },
    PassTurn: {
      namedAtCreation: ['to'],
      shapes: (view) => {
        const toMove = view.state.toMove as string;
        return [{ actor: toMove, payload: { to: view.sides.find((side) => side !== toMove)! } }];
      },
    },
  },
  procedures: { roll: { inputs: [{ dice: '3d6+1' }, { dice: [{ count: 2, sides: 6 }] }], diceExpressionSlots: ['dice'] } },
  proceed: (view) => [
    step(view.sides[0], 'Roll', { dice: '1d6', purpose: 'after the fuzzing' }),
    step(ORGANIZER, 'Roll', { dice: '2d10', purpose: 'for the other side' }, { as: view.sides[1] }),
  ],
});

// ---- France 1944 ----

const f44Started = (v: View): Step[] => (v.state.turn === 0 ? [step(ORGANIZER, 'StartTurn', { turn: 1, reactionPoints: { allied: 99, german: 99 } })] : []);
const f44CloseSegment = (v: View): Step[] => (v.state.reactionSegment ? [step(v.state.reactionSegment.side, 'EndReactionSegment')] : []);
const f44CloseIncrement = (v: View): Step[] => {
  const inc = v.state.attackIncrement;
  if (!inc) return [];
  return [
    ...inc.combats.filter((c: { resolved: boolean }) => !c.resolved).map((c: { combatId: string }) => step(inc.attacker, 'ResolveCombat', { combatId: c.combatId })),
    step(inc.attacker, 'EndAttackIncrement'),
  ];
};
const f44NextTurn = (v: View): Step[] => [
  ...f44CloseSegment(v),
  ...f44CloseIncrement(v),
  step(ORGANIZER, 'StartTurn', { turn: v.state.turn + 1, reactionPoints: { allied: 99, german: 99 } }),
];
/** An open allied attack increment in which combats may still be declared. */
const f44OpenIncrement = (v: View, mustNotHaveTriedAir = false): Step[] => {
  const started = f44Started(v);
  if (started.length) return [...started, step('allied', 'BeginAttackIncrement')];
  const inc = v.state.attackIncrement;
  if (inc && inc.attacker === 'allied' && !inc.combats.some((c: { resolved: boolean }) => c.resolved) && !(mustNotHaveTriedAir && inc.airPowerTried)) return [];
  return [...f44CloseSegment(v), ...f44CloseIncrement(v), step('allied', 'BeginAttackIncrement')];
};
const f44Combat = (fresh: () => string, combatId: string) => ({
  combatId,
  kind: 'set-piece',
  attackers: [{ unitId: fresh(), hex: '2708', strength: 4, hq: false, outOfSupply: false }],
  defenders: [{ unitId: fresh(), hex: '2709', strength: 3, outOfSupply: false }],
  attackerMorale: 4,
  defenderMorale: 3,
  terrainMoraleModifiers: [1],
  otherMoraleModifiers: [{ source: `bombing ${fresh()}`, value: -1 }],
});
/** Declares a combat first, under the hostile id when the case tests combatId. */
const f44DeclaredFirst = (fresh: () => string, combatId: string) => (ref?: string) => [
  step('allied', 'DeclareCombat', f44Combat(fresh, combatId), ref === 'combatId' ? { hostileAt: ['combatId'] } : {}),
];

export const france44Driver: RulesetDriver = withGameCommands({
  ruleset: 'france44',
  options: { hexGrid: 'odd-q', cAttackerLoss: true, airPowerMoraleModifier: -1, rulesVersion: 2 },
  commands: {
    StartTurn: {
      arm: (v) => [...f44CloseSegment(v), ...f44CloseIncrement(v)],
      shapes: (v) => [{ actor: ORGANIZER, payload: { turn: v.state.turn + 1, reactionPoints: { allied: 6, german: 4 } } }],
    },
    ActivateHQ: { arm: f44Started, shapes: (_v, fresh) => [{ actor: 'german', payload: { hqId: fresh() } }] },
    BeginReactionSegment: { arm: (v) => [...f44Started(v), ...f44CloseSegment(v)], shapes: () => [{ actor: 'german', payload: {} }] },
    ReactionPhase: {
      arm: (v, lastAccepted) => {
        const started = f44Started(v);
        if (started.length) return [...started, step('german', 'BeginReactionSegment')];
        const seg = v.state.reactionSegment;
        if (v.state.reactionPoints.german < 3) return [...f44NextTurn(v), step('german', 'BeginReactionSegment')];
        if (!seg || seg.side !== 'german' || seg.spent > 0 || lastAccepted) return [...f44CloseSegment(v), step('german', 'BeginReactionSegment')];
        return [];
      },
      shapes: (_v, fresh) => [
        { actor: 'german', payload: { kind: 'single-piece', unitId: fresh(), unitKind: 'combat', outOfSupply: false } },
        { actor: 'german', payload: { kind: 'army', hqId: fresh() } },
        { actor: 'german', payload: { kind: 'single-piece', unitId: fresh(), unitKind: 'hq', outOfSupply: false } },
        { actor: 'german', payload: { kind: 'single-piece', unitId: fresh(), unitKind: 'combat', outOfSupply: true } },
      ],
    },
    EndReactionSegment: {
      arm: (v) => {
        const started = f44Started(v);
        if (started.length) return [...started, step('german', 'BeginReactionSegment')];
        const seg = v.state.reactionSegment;
        if (seg?.side === 'german') return [];
        return [...f44CloseSegment(v), step('german', 'BeginReactionSegment')];
      },
      shapes: () => [{ actor: 'german', payload: {} }],
    },
    DeclineReactionSegment: { arm: (v) => [...f44Started(v), ...f44CloseSegment(v)], shapes: () => [{ actor: 'allied', payload: {} }] },
    BeginAttackIncrement: { arm: (v) => [...f44Started(v), ...f44CloseIncrement(v)], shapes: () => [{ actor: 'allied', payload: {} }] },
    DeclareCombat: { arm: (v) => f44OpenIncrement(v), shapes: (_v, fresh) => [{ actor: 'allied', payload: f44Combat(fresh, fresh()) }] },
    RollAirPower: {
      refSlots: ['combatId'],
      arm: (v) => f44OpenIncrement(v, true),
      shapes: (_v, fresh) => {
        const combatId = fresh();
        return [{ actor: 'allied', payload: { combatId, availability: 4 }, before: f44DeclaredFirst(fresh, combatId) }];
      },
    },
    ResolveCombat: {
      refSlots: ['combatId'],
      arm: (v) => f44OpenIncrement(v),
      shapes: (_v, fresh) => {
        const combatId = fresh();
        return [{ actor: 'allied', payload: { combatId }, before: f44DeclaredFirst(fresh, combatId) }];
      },
    },
    EndAttackIncrement: {
      arm: (v) => {
        const open = f44OpenIncrement(v);
        if (open.length) return open;
        // Every declared combat resolved, so that ending it is allowed.
        return v.state.attackIncrement.combats.filter((c: { resolved: boolean }) => !c.resolved).map((c: { combatId: string }) => step('allied', 'ResolveCombat', { combatId: c.combatId }));
      },
      shapes: () => [{ actor: 'allied', payload: {} }],
    },
    ApplySupplyAttrition: {
      arm: (v, lastAccepted) => (v.state.turn === 0 || lastAccepted ? f44NextTurn(v) : []),
      shapes: (_v, fresh) => [
        {
          actor: 'german',
          payload: {
            units: [
              { unitId: fresh(), kind: 'combat', outOfSupply: true, atCadre: false, stackedWithCombatUnit: false },
              { unitId: fresh(), kind: 'hq', outOfSupply: true, atCadre: false, stackedWithCombatUnit: false },
            ],
          },
        },
      ],
    },
  },
  procedures: {
    combat: {
      inputs: [
        {
          combatId: 'c1',
          kind: 'set-piece',
          attackers: [{ unitId: '1Inf', hex: '2708', strength: 4, hq: false }],
          defenders: [{ unitId: '352', hex: '2709', strength: 3, outOfSupply: false }],
          attackerMorale: 4,
          defenderMorale: 3,
          terrainMoraleModifiers: [1],
          otherMoraleModifiers: [{ source: '79th Armoured', value: -1 }],
          airPower: false,
        },
      ],
    },
    crdt: { inputs: [{ ratioResult: 3, defenderMorale: 4, attackerMorale: 3, kind: 'mobile' }] },
    'air-power': { inputs: [{ availability: 2 }] },
  },
  proceed: (v) => [...f44NextTurn(v), step('german', 'ActivateHQ', { hqId: 'after-the-fuzzing' })],
});

// ---- Normandy '44 ----

const n44Attack = (fresh: () => string, attackId: string, defenderId = fresh()) => ({
  attackId,
  weather: 'overcast',
  defenderHex: { terrain: 'clear', hilltop: false },
  shifts: { naval: false },
  attackers: [{ unitId: fresh(), factors: 9, mainAttackForce: true, hexside: 'none', outOfSupply: false }],
  defenders: [{ unitId: defenderId, factors: 3, steps: 3 }],
});
/** An allied attack declared (and resolved) first; the hostile value goes where the case's slot names it. */
const n44AttackFirst = (fresh: () => string, attackId: string, leadUnitId: string, resolve: boolean) => (ref?: string) => {
  const onId = ref === 'attackId' ? { hostileAt: ['attackId'] } : {};
  return [
    step('allied', 'DeclareAttack', n44Attack(fresh, attackId, leadUnitId), ref === 'leadUnitId' ? { hostileAt: ['defenders', 0, 'unitId'] } : onId),
    ...(resolve ? [step('allied', 'ResolveAttack', { attackId }, onId)] : []),
  ];
};

export const normandy44Driver: RulesetDriver = withGameCommands({
  ruleset: 'normandy44',
  options: {},
  commands: {
    StartTurn: { shapes: (v) => [{ actor: ORGANIZER, payload: { turn: v.state.turn + 1, reinforcementPoints: 7 } }] },
    DeclareAttack: { shapes: (_v, fresh) => [{ actor: 'allied', payload: n44Attack(fresh, fresh()) }] },
    ResolveAttack: {
      refSlots: ['attackId'],
      shapes: (_v, fresh) => {
        const attackId = fresh();
        return [{ actor: 'allied', payload: { attackId }, before: n44AttackFirst(fresh, attackId, fresh(), false) }];
      },
    },
    DeterminedDefense: {
      refSlots: ['attackId', 'leadUnitId'],
      diceDecides: true,
      shapes: (_v, fresh) => {
        const attackId = fresh();
        const leadUnitId = fresh();
        return [
          {
            actor: 'german',
            payload: { attackId, leadUnitId, troopQuality: 1, defensiveSupport: true },
            before: n44AttackFirst(fresh, attackId, leadUnitId, true),
          },
        ];
      },
    },
    DeclineDeterminedDefense: {
      refSlots: ['attackId'],
      diceDecides: true,
      shapes: (_v, fresh) => {
        const attackId = fresh();
        return [{ actor: 'german', payload: { attackId }, before: n44AttackFirst(fresh, attackId, fresh(), true) }];
      },
    },
    Strafe: { shapes: (_v, fresh) => [{ actor: 'allied', payload: { targetUnitId: fresh(), flak: true, strategicMovement: false } }] },
    IsolationAttrition: { shapes: (_v, fresh) => [{ actor: 'german', payload: { unitId: fresh(), canTraceSupply: false, troopQuality: 0 } }] },
    PurchaseReinforcements: {
      arm: (v) => [
        ...(v.state.mulberries.includes('omaha') ? [] : [step('allied', 'MulberryBuilt', { army: 'omaha' })]),
        ...(v.state.reinforcementPoints < 6 ? [step(ORGANIZER, 'StartTurn', { turn: v.state.turn + 1, reinforcementPoints: 99 })] : []),
      ],
      shapes: () => [{ actor: 'allied', payload: { items: [{ kind: 'supply-point', army: 'omaha' }, { kind: 'us-regiment' }] } }],
    },
    MulberryBuilt: { shapes: () => [{ actor: 'allied', payload: { army: 'arromanches' } }] },
  },
  procedures: {
    combat: {
      inputs: [
        {
          attackId: 'a1',
          attackerSide: 'allied',
          weather: 'overcast',
          defenderHex: { terrain: 'clear', hilltop: false, fortifiedPosition: false, strongpoint: false },
          shifts: { troopQuality: 'attacker', hq: 1, naval: false },
          attackers: [{ unitId: '4Inf', factors: 9, mainAttackForce: true, hexside: 'none', outOfSupply: false, landingTurn: false, fromFloodedHex: false }],
          defenders: [{ unitId: '709', factors: 3, steps: 3 }],
        },
      ],
    },
    'determined-defense': {
      inputs: [
        { defenderHex: { terrain: 'clear', hilltop: false }, troopQuality: 1, defensiveSupport: true },
        { defenderHex: { terrain: 'city', strongpoint: true }, armorComparison: -2, defensiveSupport: false },
      ],
    },
    jabos: { inputs: [{}] },
    strafing: { inputs: [{ flak: true, strategicMovement: false }] },
    isolation: { inputs: [{ canTraceSupply: false, troopQuality: 0 }] },
  },
  proceed: (v) => [step(ORGANIZER, 'StartTurn', { turn: v.state.turn + 1, reinforcementPoints: 4 }), step('allied', 'Strafe', { targetUnitId: 'after-the-fuzzing', flak: false })],
});

// ---- Memoir '44 (d6) ----

const m44Battle = (fresh: () => string, adjacent: boolean) => {
  const target = fresh();
  return {
    attacker: { unitId: fresh(), type: 'infantry', figures: 4, special: false, terrain: 'clear' },
    target: { unitId: target, type: 'infantry', figures: 4, special: false, terrain: 'clear', uphill: false },
    range: 1,
    starsHit: false,
    ...(adjacent ? { adjacentEnemyIds: [target] } : {}),
  };
};

/** A close assault likely to empty the target's hex (6 dice hitting on 4+ against one figure), so that the unit may take ground. */
const m44Assault = (unitId: string, targetId: string) => ({
  attacker: { unitId, type: 'armor', figures: 3, special: false, terrain: 'clear' },
  target: { unitId: targetId, type: 'infantry', figures: 1, special: false, terrain: 'clear', uphill: false },
  range: 1,
  starsHit: false,
});

export const memoir44Driver: RulesetDriver = withGameCommands({
  ruleset: 'memoir44-d6',
  options: { firstSide: 'axis', rulesVersion: 2 },
  commands: {
    Battle: {
      // A unit battles once a turn: after a battle, the turn passes, so that a name may battle again.
      arm: (v, lastAccepted) => (lastAccepted ? [step(v.state.activeSide, 'EndTurn')] : []),
      shapes: (v, fresh) => [
        { actor: v.state.activeSide, payload: m44Battle(fresh, false) },
        {
          actor: v.state.activeSide,
          payload: m44Battle(fresh, true),
          mirrors: { 'target.unitId': [['adjacentEnemyIds', 0]], 'adjacentEnemyIds[0]': [['target', 'unitId']] },
        },
      ],
    },
    TakeGround: {
      refSlots: ['unitId'],
      // Each case in a fresh turn: the unit battles just before it, under the hostile id when the case tests unitId.
      arm: (v) => (v.state.battledThisTurn.length ? [step(v.state.activeSide, 'EndTurn')] : []),
      shapes: (v, fresh) => {
        const unitId = fresh();
        const assault = (ref?: string) => [step(v.state.activeSide, 'Battle', m44Assault(unitId, fresh()), ref === 'unitId' ? { hostileAt: ['attacker', 'unitId'] } : {})];
        return [{ actor: v.state.activeSide, payload: { unitId }, before: assault }];
      },
      // The assault empties the hex only if a die hits or flags.
      diceDecides: true,
    },
    CardRoll: { shapes: (_v, fresh) => [{ actor: 'allies', payload: { dice: 2, purpose: `recon ${fresh()}` } }] },
    EndTurn: { shapes: (v) => [{ actor: v.state.activeSide, payload: {} }] },
  },
  procedures: {
    battle: {
      inputs: [
        {
          attacker: { unitId: '2nd Armored', type: 'armor', figures: 3, special: false, terrain: 'clear' },
          target: { unitId: 'Grenadiers', type: 'infantry', figures: 4, special: false, terrain: 'forest', uphill: false },
          range: 2,
          starsHit: false,
        },
      ],
    },
    'card-roll': { inputs: [{ dice: 2 }] },
  },
  proceed: (v) => {
    const next = v.state.activeSide === 'allies' ? 'axis' : 'allies';
    return [step(v.state.activeSide, 'EndTurn'), step(next, 'Battle', { attacker: { unitId: 'after', type: 'infantry', figures: 4 }, target: { unitId: 'fuzzing', type: 'infantry', figures: 4 }, range: 1 })];
  },
});

// ---- table (combat tables as data) ----

// Every cell its own result, so that a hostile code can be put in a cell and in the result it names (optionMirrors).
const ODDS_ROWS = 3;
const ODDS_COLUMNS = ['1-2', '1-1', '2-1', '3-1'];
const oddsCode = (row: number, column: number) => `r${row * ODDS_COLUMNS.length + column}`;
const oddsTable = {
  format: 'arbiter-table/1',
  id: 'odds',
  title: 'Odds table',
  source: 'house rules',
  dice: '2d6',
  columns: { kind: 'ratio', labels: ODDS_COLUMNS, landing: 'nearest-defender', belowFirst: 'first-column', aboveLast: 'last-column', shiftPastLeft: 'die-modifier', shiftPastRight: 'clamp' },
  rows: [{ atMost: 4 }, { from: 5, to: 9 }, { atLeast: 10 }],
  rowsOffTable: 'clamp',
  results: Array.from({ length: ODDS_ROWS * ODDS_COLUMNS.length }, (_, n) => ({
    code: `r${n}`,
    description: `result ${n}`,
    effects: n % 3 === 0 ? [] : [{ effect: 'retreat', side: 'defender', value: n % 3, note: 'hexes' }],
  })),
  cells: Array.from({ length: ODDS_ROWS }, (_, row) => ODDS_COLUMNS.map((_, column) => oddsCode(row, column))),
};
/** A cell and the result it names hold the same code; `at` is where the table sits. */
const oddsMirrors = (at: string, path: (string | number)[]): Record<string, Path[]> => {
  const mirrors: Record<string, Path[]> = {};
  for (let row = 0; row < ODDS_ROWS; row++) {
    for (let column = 0; column < ODDS_COLUMNS.length; column++) {
      const n = row * ODDS_COLUMNS.length + column;
      mirrors[`${at}.cells[${row}][${column}]`] = [[...path, 'results', n, 'code']];
      mirrors[`${at}.results[${n}].code`] = [[...path, 'cells', row, column]];
    }
  }
  return mirrors;
};
const tableFight = (fresh: () => string) => ({ attack: 6, defence: 2, shifts: [{ source: `marsh ${fresh()}`, value: -1 }], modifiers: [{ source: `air ${fresh()}`, value: 1 }] });
const tableOf = (view: View) => (view.state.tables[0]?.id as string | undefined) ?? 'odds';

export const tableDriver: RulesetDriver = withGameCommands({
  ruleset: 'table',
  options: { tables: [oddsTable], sides: ['red', 'blue'] },
  optionMirrors: oddsMirrors('tables[0]', ['tables', 0]),
  commands: {
    Resolve: {
      // The tables are the game's from its creation: another name is an unknown table.
      namedAtCreation: ['table'],
      shapes: (view, fresh) => [
        { actor: view.sides[0], payload: { table: tableOf(view), ...tableFight(fresh), purpose: `attack ${fresh()}` } },
        { actor: view.sides[1], payload: { table: tableOf(view), attack: 1, defence: 3 } },
      ],
    },
    PassTurn: {
      namedAtCreation: ['to'],
      shapes: (view) => {
        const toMove = view.state.toMove as string;
        return [{ actor: toMove, payload: { to: view.sides.find((side) => side !== toMove)! } }];
      },
    },
  },
  procedures: { resolve: { inputs: [{ table: oddsTable, ...tableFight(() => 'x') }], mirrors: oddsMirrors('table', ['table']) } },
  proceed: (view) => [step(view.sides[1], 'Resolve', { table: tableOf(view), attack: 9, defence: 3, purpose: 'after the fuzzing' })],
});

export const DRIVERS: readonly RulesetDriver[] = [diceDriver, france44Driver, normandy44Driver, memoir44Driver, tableDriver, warsAndBattlesDriver, europaDriver];
