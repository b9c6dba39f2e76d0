import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import { warsAndBattlesRuleset } from '../../../../domain/rulesets/warsandbattles';
import { effectivePoints, identify } from '../../../../domain/rulesets/warsandbattles/bombardment';
import { RULE } from '../../../../domain/rulesets/warsandbattles/rules';
import { apply, given, options, refused, unitOf } from './harness';

const level = (distance: number, viewDistance: number, weather: 'sunny' | 'overcast' | 'rain' | 'storm') => {
  try {
    return identify({ distance, viewDistance, weather }).level;
  } catch {
    return 'not seen';
  }
};

describe('identification by distance (§6.1)', () => {
  it('view 6 in clear weather: identified up to 2 hexes, recognized up to 4, detected up to 6, beyond not seen', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((d) => level(d, 6, 'sunny'))).toEqual(['identified', 'identified', 'identified', 'recognized', 'recognized', 'detected', 'detected', 'not seen']);
    expect([2, 3].map((d) => level(d, 6, 'overcast'))).toEqual(['identified', 'recognized']);
  });

  it('rain cuts the view by a third (6 → 4), a storm by half (6 → 3)', () => {
    expect([1, 2, 3, 4, 5].map((d) => level(d, 6, 'rain'))).toEqual(['identified', 'recognized', 'detected', 'detected', 'not seen']);
    expect([1, 2, 3, 4].map((d) => level(d, 6, 'storm'))).toEqual(['identified', 'recognized', 'detected', 'not seen']);
    expect(identify({ distance: 2, viewDistance: 6, weather: 'rain' }).breakdown).toMatchObject({ effectiveView: '4', identifiedUpTo: '1.33', recognizedUpTo: '2.67', weatherEffect: 'view cut by a third' });
  });

  it('compares thirds exactly (ruling): view 5 identifies at 1 hex (5/3 = 1.67), recognizes at 3 (10/3 = 3.33)', () => {
    expect([1, 2, 3, 4].map((d) => level(d, 5, 'sunny'))).toEqual(['identified', 'recognized', 'recognized', 'detected']);
  });

  it('refuses a target beyond the view distance', () => {
    expect(() => identify({ distance: 7, viewDistance: 6, weather: 'sunny' })).toThrow(/beyond the observer's view distance \(6 hexes in sunny weather\)/);
  });
});

describe('bombardment effectiveness (§7.5.3)', () => {
  it('100% identified, 75% recognized, 50% detected; rounded to the nearest, a half in the bombarded unit\'s favour (ruling)', () => {
    expect(['identified', 'recognized', 'detected'].map((l) => effectivePoints(20, l as never))).toEqual([20, 15, 10]);
    expect([effectivePoints(15, 'recognized'), effectivePoints(15, 'detected'), effectivePoints(14, 'recognized'), effectivePoints(13, 'recognized'), effectivePoints(10, 'recognized')]).toEqual([11, 7, 10, 10, 7]);
  });

  it('a Bombard with the sight works out the level itself, and says how; the procedure too', () => {
    const { events, state } = apply(given([], options()), ['allied', 'Bombard', { targetHex: '0812', targets: ['gr-916'], bombarders: [{ unitId: 'us-ship', points: 20 }], sight: { distance: 3, viewDistance: 6, weather: 'sunny' } }, [6, 6]]);
    const resolved = events.find((e) => e.type === 'BombardmentResolved')!.data;
    expect(resolved).toMatchObject({ identification: 'recognized', effectiveness: 75, points: 20, effectivePoints: 15, sight: { distance: 3, effectiveView: '6' }, loss: 8 });
    expect(unitOf(state, 'gr-916').lp).toBe(0);
    expect(warsAndBattlesRuleset.summarize({ type: 'Bombard', payload: {} }, events)).toBe('0812: 20 points recognized = 15, 2d6 12 -> 8: -8 LP; 1 destroyed (1 activation point)');
    const spec = warsAndBattlesRuleset.procedures.identification;
    expect(spec.evaluate(spec.input.parse({ distance: 5, viewDistance: 6, weather: 'sunny' }), warsAndBattlesRuleset.options.parse({}), new GivenDice([])).result).toEqual({ identification: 'detected', effectiveness: 50 });
  });

  it('a Bombard at a target beyond sight is refused, naming the rule; the level or the sight, exactly one', () => {
    refused(given([], options()), ['allied', 'Bombard', { targetHex: '0812', targets: ['gr-916'], bombarders: [{ unitId: 'us-ship', points: 20 }], sight: { distance: 9, viewDistance: 6, weather: 'storm' } }], /not seen/);
    expect(RULE.sight).toMatch(/§6.1/);
    const schema = warsAndBattlesRuleset.commands.Bombard.schema;
    const base = { targetHex: 'h', targets: ['t'], bombarders: [{ unitId: 'b', points: 1 }] };
    expect(schema.safeParse(base).success).toBe(false);
    expect(schema.safeParse({ ...base, identification: 'detected', sight: { distance: 1, viewDistance: 6, weather: 'rain' } }).success).toBe(false);
    expect(schema.safeParse({ ...base, identification: 'detected' }).success).toBe(true);
  });
});
