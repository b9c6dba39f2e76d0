import fc from 'fast-check';
import type { Walk } from '../refusesBeforeDice';

/** Expressions at and past the limits: 100 dice, sides 2 to 1000, notation 2 in a version-1 game, a modifier of ±1000. */
const EXPRESSIONS = ['1d6', '3d6+1', '2d10-3', 'd66', 'd%', '4d6kh3', '4d6kl1', '6d6>=5', '1d6!', '10d6!', '11d6!', '100d6', '101d6', '1d1', '1d1001', 'd1000', '2d6+1000', '1d6-1001', '50d66', '51d66', '2d6+1d8-3'];
const PURPOSES = ['attack on 0912', 'morale', '__proto__', 'constructor'];

/** PassTurn now and then; Roll, by any side, the organizer or a stranger, with dice strings and lists of every kind. */
export const diceWalk: Walk = {
  game: fc
    .record({ sides: fc.constantFrom(undefined, ['north', 'south', 'east']), rulesVersion: fc.constantFrom(undefined, 1, 2) })
    .map(({ sides, rulesVersion }) => ({ options: { ...(sides ? { sides } : {}), ...(rulesVersion ? { rulesVersion } : {}) }, material: null })),
  next(_state, d, _material, _seq, sides) {
    const actor = d.pick([...sides, 'organizer', 'stranger']);
    const purpose = d.pick(PURPOSES);
    if (d.chance(0.1)) return { actor, type: 'PassTurn', payload: { to: d.pick([...sides, 'stranger']) } };
    if (d.chance(0.5)) return { actor, type: 'Roll', payload: { dice: d.pick(EXPRESSIONS), purpose } };
    if (d.chance(0.6)) {
      const dice = `${d.int(1, 40)}d${d.pick([2, 6, 10, 20, 66, 100, 1000, 1, 1001])}${d.pick(['', '!', 'kh2', 'kl1', '>=4', '<3', '+5', '-2'])}`;
      return { actor, type: 'Roll', payload: { dice, purpose } };
    }
    const terms = Array.from({ length: d.int(1, 3) }, () => ({ count: d.int(1, 60), sides: d.pick([1, 2, 6, 66, 1000, 1001]) }));
    return { actor, type: 'Roll', payload: { dice: terms, purpose } };
  },
  rolling: ['Roll'],
};
