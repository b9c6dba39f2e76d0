import { describe, expect, it } from 'vitest';
import { memoir44Ruleset } from '../../../../domain/rulesets/memoir44';
import { harness } from '../../../support/rulesetHarness';
import { resultTextShown } from '../shownOnTheTimeline';

const { given, apply } = harness(memoir44Ruleset);
const text = (type: string, events: ReturnType<typeof apply>['events']) => resultTextShown(memoir44Ruleset, { type, payload: {} }, events);
const unit = (unitId: string, type = 'infantry', figures = 4) => ({ unitId, type, figures });
const battle = (dice: number[], target = unit('Grenadiers'), range = 2): Parameters<typeof apply>[1] => ['allies', 'Battle', { attacker: unit('2nd Rangers'), target, range }, dice];

describe("the result text of a Memoir '44 commit", () => {
  it('calls a battle out as players do: each hit and flag', () => {
    // Four figures battle with four dice; at range 2 a 5 or 6 hits an infantry unit, a 1 is a flag.
    expect(text('Battle', apply(given([]), battle([6, 5, 4, 1])).events)).toBe('hit, hit, flag');
    expect(text('Battle', apply(given([]), battle([6, 2, 3, 1])).events)).toBe('hit, flag');
    expect(text('Battle', apply(given([]), battle([3, 4, 2, 3])).events)).toBe('miss');
  });

  it('says when the target is eliminated', () => {
    expect(text('Battle', apply(given([]), battle([6, 6, 6, 3], unit('Grenadiers', 'infantry', 2))).events)).toBe('hit, hit, hit; eliminated');
  });

  it("reads a command card's roll as its symbols; a turn's end has no result", () => {
    expect(text('CardRoll', apply(given([]), ['allies', 'CardRoll', { dice: 2, purpose: 'recon' }, [1, 2]]).events)).toBe('flag, star');
    expect(text('EndTurn', apply(given([]), ['allies', 'EndTurn']).events)).toBe('');
  });
});
