import { describe, expect, it } from 'vitest';
import { allRulesets } from '../../../domain/rulesets/registry';
import { loadedRuleset, loadRuleset, RULESET_IDS } from '../../../functions/application/rulesetLoader';

describe('the service\'s rulesets, loaded on demand', () => {
  it('are the registry\'s, in its order, each the same ruleset once loaded; an unknown id loads nothing', async () => {
    expect(RULESET_IDS).toEqual(allRulesets().map((r) => r.id));
    for (const ruleset of allRulesets()) {
      expect(await loadRuleset(ruleset.id)).toBe(ruleset);
      expect(loadedRuleset(ruleset.id)).toBe(ruleset);
    }
    expect(await loadRuleset('chess')).toBeUndefined();
    expect(await loadRuleset('__proto__')).toBeUndefined();
    expect(loadedRuleset('__proto__')).toBeUndefined();
  });
});
