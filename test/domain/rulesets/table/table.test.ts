import { readFileSync } from 'node:fs';
import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tableRuleset } from '../../../../domain/rulesets/table';
import { Resolve, TableOptions } from '../../../../domain/rulesets/table/schemas';
import { tableHash, type TableDefinition } from '../../../../domain/tables';
import { verifyBundle } from '../../../../domain/verify/verifyBundle';
import { memoryService } from '../../../support/memoryService';
import { harness } from '../../../support/rulesetHarness';
import { inputFor, validTable } from '../../../support/tableArbitraries';
import { HOSTILE_IDS } from '../hostileIds';

const { given, apply, refused } = harness(tableRuleset);
const example = (name: string): TableDefinition => JSON.parse(readFileSync(new URL(`../../../../docs/examples/tables/${name}.json`, import.meta.url), 'utf8'));
const setPiece = example('france44-crt-set-piece');
const mobile = example('france44-crt-mobile');

describe('the table ruleset', () => {
  it('resolves on the game\'s table named by the command: column, shifts, roll, cell and effects in the event', () => {
    const state = given([], { tables: [setPiece, mobile] });
    const { events, state: after } = apply(state, ['player1', 'Resolve', { table: mobile.id, attack: 9, defence: 3, shifts: [{ source: 'morale', value: -1 }], modifiers: [{ source: 'air', value: 1 }], purpose: 'hex 0912' }, [3]]);
    expect(events).toHaveLength(1);
    const data = events[0].data as any;
    expect(data.table).toEqual({ id: mobile.id, title: mobile.title, hash: tableHash(mobile), example: false });
    expect(data.landing.landedColumn.label).toBe('3-1');
    expect(data.landing.column.label).toBe('2-1');
    expect(data.roll).toMatchObject({ dice: '1d6', faces: [3], natural: 3, modified: 4 });
    expect(data.code).toBe(mobile.cells[3][6]);
    expect(tableRuleset.events!.TableResolved.safeParse(data).success).toBe(true);
    expect(after.last).toEqual({ table: mobile.id, purpose: 'hex 0912', column: '2-1', roll: 4, code: mobile.cells[3][6] });
    expect(tableRuleset.summarize({ type: 'Resolve', payload: {} }, events)).toBe(`"hex 0912": "${mobile.title}" (${tableHash(mobile).slice(0, 19)}) 2-1, 1d6 3+1 = 4 → "${mobile.cells[3][6]}"`);
  });

  it('refuses a table the game did not bring, a game without tables, and an input off the table, with the rule', () => {
    refused(given([], { tables: [setPiece] }), ['player1', 'Resolve', { table: 'other', attack: 2, defence: 1 }, [1]], /has no table "other": its tables are france44-crt-set-piece/);
    refused(given([]), ['player1', 'Resolve', { table: setPiece.id, attack: 2, defence: 1 }, [1]], /created without tables/);
    refused(given([], { tables: [setPiece] }), ['player1', 'Resolve', { table: setPiece.id, attack: 1, defence: 5 }, [1]], /left of the first column/);
  });

  it('takes hostile ids and sources as data', () => {
    for (const id of HOSTILE_IDS) {
      const state = given([], { tables: [setPiece] });
      const { events } = apply(state, ['player1', 'Resolve', { table: setPiece.id, attack: 3, defence: 1, shifts: [{ source: id, value: 0 }], purpose: id }, [2]]);
      expect((events[0].data as any).landing.shifts.sources).toEqual([{ source: id, value: 0 }]);
      // A table id is a slug: one that fits is looked up among the game's tables (never as a key), one that does not is a 400.
      const parsed = Resolve.safeParse({ table: id, attack: 3, defence: 1 });
      if (parsed.success) refused(state, ['player1', 'Resolve', { table: id, attack: 3, defence: 1 }, [2]], /has no table/);
      else expect(parsed.error.issues.map((i) => i.path.join('.'))).toEqual(['table']);
    }
  });

  it('refuses two tables with one id at creation, naming the second', () => {
    const parsed = TableOptions.safeParse({ tables: [setPiece, { ...mobile, id: setPiece.id }] });
    expect(parsed.success).toBe(false);
    expect(parsed.error!.issues.map((i) => i.path.join('.'))).toContain('tables.1.id');
  });

  it('lets the verifier replay any game played on any valid table', async () => {
    await fc.assert(
      fc.asyncProperty(
        validTable().chain((table) => fc.tuple(fc.constant(table), fc.array(inputFor(table), { minLength: 1, maxLength: 4 }))),
        async ([table, inputs]) => {
          const { service } = memoryService('any-table');
          const game = await service.createGame({ ruleset: 'table', options: { tables: [table] } });
          const { player1 } = game.tokens.players;
          let accepted = 0;
          for (const [i, { input }] of inputs.entries()) {
            // The game's own dice, not the arbitrary's: a roll past rows the table refuses is a 422, and nothing is stored.
            const outcome = await service.submit(game.gameId, player1, { commandId: `r${i}`, type: 'Resolve', payload: { table: table.id, ...input } }).catch((error: { code?: string }) => {
              if (error.code !== 'rule_violation') throw error;
              return undefined;
            });
            if (outcome) accepted += 1;
          }
          await service.submit(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
          const bundle = JSON.parse(JSON.stringify(await service.exportBundle(game.gameId, player1)));
          expect(bundle.commits).toHaveLength(accepted + 2);
          const report = verifyBundle(bundle);
          expect(report.ok, JSON.stringify(report.failures?.[0])).toBe(true);
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('the table ruleset\'s inputs', () => {
  it('are strengths as players write them: at most 3 decimals, never negative, at most a million', () => {
    expect(Resolve.safeParse({ table: 't', attack: 12.5, defence: 0.125 }).success).toBe(true);
    for (const bad of [{ attack: 1e-300, defence: 1 }, { attack: 1, defence: 0.0001 }, { attack: -1, defence: 1 }, { attack: 1e7, defence: 1 }, { value: Number.MAX_VALUE }]) {
      expect(Resolve.safeParse({ table: 't', ...bad }).success, JSON.stringify(bad)).toBe(false);
    }
  });
});
