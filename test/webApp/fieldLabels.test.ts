// A form field's label in words from its schema's description, its API name kept beside it.
import { describe, expect, it } from 'vitest';
import { labelOf } from '../../web/app/fieldLabel';

describe("a form field's label", () => {
  it("is the description's first clause when it names the field, else the name in words before it", () => {
    expect(labelOf('attack', 'the attack total (ratio and differential tables)')).toEqual({ text: 'The attack total (ratio and differential tables)', name: 'attack' });
    expect(labelOf('energy', 'per cent; fatigue is 100 - energy')).toEqual({ text: 'Energy: per cent', name: 'energy', hint: 'per cent; fatigue is 100 - energy' });
  });

  it('never ends inside a bracket, and falls back to the name when the clause names nothing', () => {
    expect(labelOf('zocRetreatLoss', 'LP a unit loses retreating into an enemy zone of control (ruling: 1)').text).toBe('LP a unit loses retreating into an enemy zone of control');
    expect(labelOf('rulesVersion', '2: the current rules; 1: as first published').text).toBe('Rules version');
    expect(labelOf('maxLp', undefined)).toEqual({ text: 'Max lp', name: 'maxLp' });
  });
});
