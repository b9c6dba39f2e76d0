/**
 * A valid payload of each Wars and Battles command and procedure, with every optional id and
 * text field filled in, and the fields in them that take text a player chooses (for
 * test/domain/rulesets/playerStrings.test.ts and playerStrings.test.ts here).
 */
const attack = {
  attackId: 'a1',
  targetHex: '0812',
  attackers: [{ unitId: '29 Inf', hex: '0811' }],
  defenders: ['916 GR'],
  support: [{ unitId: 'USS Texas', points: 10 }],
  terrain: 'hedgerows',
  across: ['river'],
  cherbourg: 'area',
};

export const warsAndBattlesSamples = {
  commands: {
    Activate: { unitIds: ['29 Inf'] },
    DeclareAttack: attack,
    ResolveAttack: { attackId: 'a1', retreats: [{ unitId: '916 GR', route: 'enemy-zoc' }] },
    Bombard: { bombardmentId: 'b1', targetHex: '0812', targets: ['916 GR'], bombarders: [{ unitId: '8th AF', points: 15 }], sight: { distance: 2, viewDistance: 6, weather: 'rain' }, antiAircraft: [{ unitId: '8th AF', lp: 1 }] },
    Replenish: { units: [{ unitId: '916 GR', lp: 2 }] },
    EndImpulse: {},
    EndTurn: { outOfSupply: ['916 GR'], inContact: ['29 Inf'] },
  },
  procedures: {
    combat: {
      attackerSide: 'allied',
      attackers: [{ unitId: '29 Inf', kind: 'infantry', attack: 6, hex: '0811', lp: 8 }, { unitId: 'Bradley', kind: 'commander', attack: 0, commander: 'Bradley' }],
      defenders: [{ unitId: '916 GR', kind: 'infantry', defence: 2, lp: 8 }],
      support: [{ unitId: 'USS Texas', points: 10 }],
      terrain: 'hedgerows',
      across: ['river'],
      retreats: [{ unitId: '916 GR', route: 'open' }],
      terrainTable: [{ terrain: 'hedgerows', c: 0 }],
      commanders: [{ commander: 'Bradley', attack: { c: 1 } }],
    },
    bombardment: { points: 15, identification: 'identified', targets: [{ unitId: '916 GR', defence: 2, lp: 8 }] },
    support: { support: [{ unitId: 'USS Texas', points: 15 }] },
    identification: { distance: 2, viewDistance: 6, weather: 'sunny' },
    'allied-replenishment': { maxLp: 8, lp: 3 },
  },
};

export const warsAndBattlesFreeText: Record<string, string[]> = {
  'wars-and-battles Activate': ['unitIds[0]'],
  'wars-and-battles DeclareAttack': ['attackId', 'targetHex', 'attackers[0].unitId', 'attackers[0].hex', 'defenders[0]', 'support[0].unitId', 'terrain', 'across[0]'],
  'wars-and-battles ResolveAttack': ['attackId', 'retreats[0].unitId'],
  'wars-and-battles Bombard': ['bombardmentId', 'targetHex', 'targets[0]', 'bombarders[0].unitId', 'antiAircraft[0].unitId'],
  'wars-and-battles Replenish': ['units[0].unitId'],
  'wars-and-battles EndTurn': ['outOfSupply[0]', 'inContact[0]'],
  'wars-and-battles procedure combat': [
    'attackers[0].unitId',
    'attackers[0].hex',
    'attackers[1].unitId',
    'attackers[1].commander',
    'defenders[0].unitId',
    'support[0].unitId',
    'terrain',
    'across[0]',
    'retreats[0].unitId',
    'terrainTable[0].terrain',
    'commanders[0].commander',
  ],
  'wars-and-battles procedure bombardment': ['targets[0].unitId'],
  'wars-and-battles procedure support': ['support[0].unitId'],
};
