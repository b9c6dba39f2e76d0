import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { RuleViolation } from '../../../../domain/errors';
import { checkBattle, resolveBattle, type BattleInput } from '../../../../domain/rulesets/memoir44/battle';
import { CURRENT_RULES_VERSION } from '../../../../domain/rulesets/memoir44/rulesVersion';

const battle = (over: Partial<BattleInput> = {}): BattleInput => ({
  attacker: { type: 'infantry', figures: 4 },
  target: { type: 'infantry', figures: 4 },
  range: 1,
  ...over,
});

describe('the source\'s Q&A', () => {
  it('a 2-figure armor at range 2 on infantry in the clear rolls 4 dice and hits on 4, 5, 6', () => {
    const dice = new GivenDice([3, 4, 5, 6]);
    const { result, breakdown } = resolveBattle(battle({ attacker: { type: 'armor', figures: 2 }, range: 2 }), dice, CURRENT_RULES_VERSION);
    expect(breakdown).toMatchObject({ dice: 4, threshold: '4+', reduction: 0 });
    expect(result.hits).toBe(3);
  });

  it('a full armor on infantry in a forest rolls 6 dice, −2 each: only 6s hit', () => {
    const { result, breakdown } = resolveBattle(battle({ attacker: { type: 'armor', figures: 3 }, target: { type: 'infantry', figures: 4, terrain: 'forest' } }), new GivenDice([6, 5, 4, 6, 2, 3]), CURRENT_RULES_VERSION);
    expect(breakdown).toMatchObject({ dice: 6, reductions: [{ reason: 'forest', value: 2 }] });
    expect(result.hits).toBe(2);
  });

  it('a full special infantry scoring 4 hits on a full armor: 3 defensive dice cancel at most 3', () => {
    const dice = new GivenDice([4, 5, 6, 6, 2, 6, 5, 6]);
    const { result, breakdown } = resolveBattle(battle({ attacker: { type: 'infantry', figures: 4, special: true }, target: { type: 'armor', figures: 3 } }), dice, CURRENT_RULES_VERSION);
    expect(breakdown).toMatchObject({ dice: 5, rolls: [4, 5, 6, 6, 2], defensiveRolls: [6, 5, 6] });
    expect(result).toEqual({ hits: 4, flags: 0, cancelled: 3, figuresLost: 1, eliminated: false });
  });

  it('an armor in town cannot battle an infantry in a forest two hexes away', () => {
    const refused = () => checkBattle(battle({ attacker: { type: 'armor', figures: 3, terrain: 'town' }, target: { type: 'infantry', figures: 4, terrain: 'forest' }, range: 2 }), CURRENT_RULES_VERSION);
    expect(refused).toThrow(RuleViolation);
    expect(refused).toThrow('No die can hit: armor needs 4+ at range 2, and a 6 −2 (battle out: town) −2 (forest) is only 2.');
  });
});

describe('dice and thresholds', () => {
  it('a raw 1 is always a flag', () => {
    const { result } = resolveBattle(battle({ target: { type: 'infantry', figures: 4, terrain: 'hedgerow' } }), new GivenDice([1, 1, 4, 5]), CURRENT_RULES_VERSION);
    // Close assault hits on 4+; the hedgerow takes 1 from each die: only the 5 scores.
    expect(result).toMatchObject({ hits: 1, flags: 2 });
  });

  it('artillery in a bunker is hit on raw 1s and 6s only, with no modifiers, and those 1s are not flags', () => {
    const input = battle({ attacker: { type: 'armor', figures: 2, terrain: 'town' }, target: { type: 'artillery', figures: 2, terrain: 'bunker' }, range: 3 });
    const { result, breakdown } = resolveBattle(input, new GivenDice([1, 6, 5, 4]), CURRENT_RULES_VERSION);
    expect(result).toMatchObject({ hits: 2, flags: 0 });
    expect(breakdown).toMatchObject({ reduction: 0, threshold: 'raw 1 or 6 (artillery in a bunker)' });
  });

  it('subtracts a hill only when attacking uphill', () => {
    expect(checkBattle(battle({ target: { type: 'infantry', figures: 4, terrain: 'hill', uphill: true } }), CURRENT_RULES_VERSION).reduction).toBe(1);
    expect(checkBattle(battle({ target: { type: 'infantry', figures: 4, terrain: 'hill' } }), CURRENT_RULES_VERSION).reduction).toBe(0);
  });

  it('adds battle-in and battle-out reductions', () => {
    expect(checkBattle(battle({ attacker: { type: 'infantry', figures: 4, terrain: 'wire' }, target: { type: 'infantry', figures: 4, terrain: 'sandbags' } }), CURRENT_RULES_VERSION).reduction).toBe(2);
  });

  it('reads the armor column for cavalry, and no terrain for artillery and snipers (rulings)', () => {
    expect(checkBattle(battle({ attacker: { type: 'cavalry', figures: 3 }, target: { type: 'infantry', figures: 4, terrain: 'sandbags' } }), CURRENT_RULES_VERSION).reduction).toBe(1);
    expect(() => checkBattle(battle({ attacker: { type: 'cavalry', figures: 3 }, target: { type: 'infantry', figures: 4, terrain: 'forest' } }), CURRENT_RULES_VERSION)).toThrow(/No die can hit/);
    expect(checkBattle(battle({ attacker: { type: 'artillery', figures: 2, terrain: 'town' }, target: { type: 'infantry', figures: 4, terrain: 'bunker' }, range: 5 }), CURRENT_RULES_VERSION).reduction).toBe(0);
    expect(checkBattle(battle({ attacker: { type: 'sniper', figures: 1 }, target: { type: 'infantry', figures: 4, terrain: 'forest' }, range: 4 }), CURRENT_RULES_VERSION).reduction).toBe(0);
  });

  it('refuses a target out of range, before any die', () => {
    const dice = new GivenDice([]);
    expect(() => resolveBattle(battle({ range: 4 }), dice, CURRENT_RULES_VERSION)).toThrow(/out of its range/);
    expect(() => resolveBattle(battle({ attacker: { type: 'sniper', figures: 1 }, range: 6 }), dice, CURRENT_RULES_VERSION)).toThrow(/out of its range/);
    expect(dice.drawn).toEqual([]);
  });

  it('rolls the armor defensive dice only when a hit was scored, and never cancels a flag', () => {
    const miss = new GivenDice([2, 3, 1]);
    const { result } = resolveBattle(battle({ attacker: { type: 'infantry', figures: 3 }, target: { type: 'armor', figures: 2 } }), miss, CURRENT_RULES_VERSION);
    expect(result).toEqual({ hits: 0, flags: 1, cancelled: 0, figuresLost: 0, eliminated: false });
    expect(miss.drawn).toHaveLength(3);
  });

  it('eliminates a unit that loses all its figures', () => {
    const { result } = resolveBattle(battle({ attacker: { type: 'armor', figures: 3 }, target: { type: 'infantry', figures: 2 } }), new GivenDice([6, 6, 6, 4, 1, 1]), CURRENT_RULES_VERSION);
    expect(result).toEqual({ hits: 4, flags: 2, cancelled: 0, figuresLost: 2, eliminated: true });
  });
});
