import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../../../domain/canonicalJson';
import { decideCreate } from '../../../../domain/game/decideGame';
import { warsAndBattlesRuleset } from '../../../../domain/rulesets/warsandbattles';
import { EXAMPLE_TABLES } from '../../../../domain/rulesets/warsandbattles/exampleTables';
import { options, TEST_TABLES } from './harness';

/** What the service does to a creation request (gameService withNewGameOptions): the ruleset's options for new games where the request sets none. */
const request = (given: Record<string, unknown>) => ({ ruleset: 'wars-and-battles', options: { ...warsAndBattlesRuleset.newGameOptions, ...given } });
const created = (given: Record<string, unknown>) => decideCreate(warsAndBattlesRuleset, request(given) as never, '00'.repeat(32));

describe('creating a game: the tables are in the request commit 1 records', () => {
  it('without tables, the request carries the bundled examples, and GameCreated records them', () => {
    const event = created({ units: options().units, commanders: options().commanders });
    expect(request({}).options).toMatchObject({ tables: EXAMPLE_TABLES });
    expect((event.data.options as { tables: unknown }).tables).toEqual(EXAMPLE_TABLES);
    expect(event.data.sides).toEqual(['allied', 'axis']);
  });

  it('with tables, exactly those; replaying the request gives the same event, and the recorded options fold to the same state after storage', () => {
    const event = created(options());
    expect(canonicalJson(created(options()))).toBe(canonicalJson(event));
    expect((event.data.options as { tables: unknown }).tables).toEqual(TEST_TABLES);
    const stored = JSON.parse(JSON.stringify(event.data.options));
    expect(canonicalJson(warsAndBattlesRuleset.options.parse(stored))).toBe(canonicalJson(event.data.options));
    const state = warsAndBattlesRuleset.initialState(stored as never, ['allied', 'axis']);
    expect(warsAndBattlesRuleset.present(state)).toMatchObject({ turn: 1, phasing: 'allied', units: expect.arrayContaining([expect.objectContaining({ unitId: 'us-inf-1', lp: 8 })]) });
  });

  it('a malformed table is refused at creation, with the path of the cell', () => {
    const broken = structuredClone(TEST_TABLES);
    broken.support.cells[0][2] = 'L9';
    expect(() => created({ tables: broken })).toThrow(/tables.*support.*cells/s);
  });
});
