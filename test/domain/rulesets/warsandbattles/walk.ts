import fc from 'fast-check';
import { WEATHER } from '../../../../domain/rulesets/warsandbattles/vocabulary';
import type { WarsAndBattlesState } from '../../../../domain/rulesets/warsandbattles/state';
import type { Walk } from '../refusesBeforeDice';
import { TEST_AVAILABILITY } from './airHarness';
import { commandOf, gameOptions, intent, randomOptions, type Intent } from './randomGame';

// fc.gen caches an arbitrary by its builder: one builder, always the same.
const anIntent = () => intent;

/**
 * Wars and Battles: the random games of randomGame.ts (intents read against the state), in
 * rules version 1 and 2 (air missions, weather, availability rolled at the turn change), on
 * the test tables or on the bundled example tables (whose cells the source does not show are
 * refused before the dice).
 */
export const warsAndBattlesWalk: Walk = {
  game: fc
    .record({ o: gameOptions, v2: fc.boolean(), exampleTables: fc.nat({ max: 4 }), weather: fc.constantFrom(...WEATHER) })
    .map(({ o, v2, exampleTables, weather }) => {
      const { tables, ...options } = randomOptions(o);
      return {
        options: { ...options, ...(exampleTables === 0 ? {} : { tables }), ...(v2 ? { rulesVersion: 2, availability: TEST_AVAILABILITY, weather } : {}) },
        material: null,
      };
    }),
  next(state: WarsAndBattlesState, d, _material, seq) {
    const resolveNow = state.openAttack !== null && d.chance(0.5);
    const x: Intent = resolveNow ? { kind: 'resolve', routes: [d.int(0, 4), d.int(0, 4)] } : d.from(anIntent);
    const command = commandOf(state, x, seq);
    if (state.rulesVersion < 2) return command;
    // Version 2: a bombarder gives its range (7.5.1), and EndTurn may set the next turn's weather.
    if (command.type === 'Bombard') {
      const payload = command.payload as { bombarders: Record<string, unknown>[] };
      const bombarders = payload.bombarders.slice(0, d.chance(0.9) ? 1 : 2).map((b) => ({ ...b, range: d.chance(0.8) ? d.int(2, 4) : d.int(0, 6) }));
      return { ...command, payload: { ...payload, bombarders } };
    }
    if (command.type === 'EndTurn' && d.chance(0.5)) return { ...command, payload: { ...(command.payload as object), weather: d.pick(WEATHER) } };
    return command;
  },
  rolling: ['ResolveAttack', 'Bombard', 'EndTurn'],
};
