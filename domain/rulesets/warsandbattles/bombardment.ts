import type { DiceSource } from '../../dice';
import { RuleViolation } from '../../errors';
import type { TableDefinition } from '../../tables';
import { effectTotal, resolveCovered } from './coverage';
import { RULE } from './rules';
import type { Identification, Sight, Weather } from './schemas';

/** §6.1: the view distance in rain loses a third, in a storm half. As a fraction, so that thirds stay exact. */
const VIEW: Readonly<Record<Weather, { num: number; den: number; note: string }>> = {
  sunny: { num: 1, den: 1, note: 'full view' },
  overcast: { num: 1, den: 1, note: 'full view' },
  rain: { num: 2, den: 3, note: 'view cut by a third' },
  storm: { num: 1, den: 2, note: 'view halved' },
};

/** §7.5.3: the share of the bombardment points that counts. */
export const EFFECTIVENESS: Readonly<Record<Identification, number>> = { identified: 100, recognized: 75, detected: 50 };

const show = (n: number) => String(Math.round(n * 100) / 100);

/**
 * §6.1: identified within a third of the view distance, recognized within two thirds,
 * detected beyond, up to the view distance (after the weather). Compared exactly, with no
 * rounding of the thirds (ruling): a view of 5 identifies at 1 hex, not at 2.
 */
export function identify(sight: Sight) {
  const { num, den, note } = VIEW[sight.weather];
  const view = sight.viewDistance * num; // the view distance is view/den
  const d = sight.distance * den;
  const breakdown = {
    ...sight,
    weatherEffect: note,
    effectiveView: show(view / den),
    identifiedUpTo: show(view / den / 3),
    recognizedUpTo: show((2 * view) / den / 3),
  };
  if (d > view) {
    throw new RuleViolation(
      `At ${sight.distance} hexes the target is beyond the observer's view distance (${breakdown.effectiveView} hexes in ${sight.weather} weather): it is not seen. Give the identification level if another unit sees it.`,
      RULE.sight,
    );
  }
  const level: Identification = 3 * d <= view ? 'identified' : 3 * d <= 2 * view ? 'recognized' : 'detected';
  return { level, effectiveness: EFFECTIVENESS[level], breakdown };
}

/**
 * §7.5.3: the points that count, rounded to the nearest, an exact half in the bombarded
 * unit's favour (ruling, as for the combat ratio): 15 detected is 7, not 8.
 */
export function effectivePoints(points: number, identification: Identification): number {
  const hundredths = points * EFFECTIVENESS[identification];
  const whole = Math.floor(hundredths / 100);
  return hundredths % 100 > 50 ? whole + 1 : whole;
}

/** §7.5.2: the effective points on the bombardment table, 2d6 → LP the bombarded stack loses. */
export function resolveBombardment(points: number, identification: Identification, table: TableDefinition, dice: DiceSource) {
  const effective = effectivePoints(points, identification);
  const resolution = resolveCovered(table, { value: effective }, dice);
  const loss = resolution.unproven ? 0 : effectTotal(resolution, 'loss', 'defender');
  return { points, identification, effectiveness: EFFECTIVENESS[identification], effectivePoints: effective, resolution, loss };
}
