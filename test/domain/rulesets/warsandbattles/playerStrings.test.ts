import { describe, expect, it } from 'vitest';
import { warsAndBattlesRuleset } from '../../../../domain/rulesets/warsandbattles';

// Every command's and procedure's free-text fields: test/domain/rulesets/playerStrings.test.ts, with samples.ts.
describe('text players choose, in the Wars and Battles options', () => {
  it('unit ids, divisions, terrain and commander names refuse line breaks, text-direction controls and blanks', () => {
    const unit = { unitId: 'u', side: 'allied', kind: 'infantry', division: 'd', quality: 'veteran', maxLp: 8 };
    for (const bad of ['a\nb', '\u202eb', ' ']) {
      expect(warsAndBattlesRuleset.options.safeParse({ units: [{ ...unit, unitId: bad }] }).success).toBe(false);
      expect(warsAndBattlesRuleset.options.safeParse({ units: [{ ...unit, division: bad }] }).success).toBe(false);
      expect(warsAndBattlesRuleset.options.safeParse({ terrain: [{ terrain: bad, c: 1 }] }).success).toBe(false);
      expect(warsAndBattlesRuleset.options.safeParse({ commanders: [{ commander: bad }] }).success).toBe(false);
    }
    expect(warsAndBattlesRuleset.options.safeParse({ units: [unit] }).success).toBe(true);
  });
});
