import { describe, expect, it } from 'vitest';
import { allRulesets } from '../../../domain/rulesets/registry';
import { displayedResultText, RULESETS_WITH_RESULT_TEXTS } from '../../../domain/rulesets/resultTexts';

describe("the timeline's result texts (resultTexts.ts)", () => {
  it('has one for every ruleset of the registry, and none for a ruleset it does not know', () => {
    expect([...RULESETS_WITH_RESULT_TEXTS].sort()).toEqual(allRulesets().map((r) => r.id).sort());
    expect(displayedResultText('no-such-ruleset', { type: 'Roll', payload: {} }, [{ type: 'DiceRolled', data: { total: 3 } }])).toBe('');
  });

  it("says nothing of the game's own commits (creation, entropy, sealing), nor of events it cannot read", () => {
    const own = [
      { type: 'CreateGame', payload: {}, events: [{ type: 'GameCreated', data: { ruleset: 'x' } }] },
      { type: 'ContributeEntropy', payload: {}, events: [{ type: 'EntropyContributed', data: { by: 'allied', entropy: 'abc' } }] },
      { type: 'Seal', payload: {}, events: [{ type: 'GameSealed', data: { serverSeed: '00' } }] },
    ];
    for (const id of RULESETS_WITH_RESULT_TEXTS) {
      for (const { type, payload, events } of own) expect(displayedResultText(id, { type, payload }, events), `${id} ${type}`).toBe('');
    }
  });
});
