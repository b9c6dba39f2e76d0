import fc from 'fast-check';
import type { TableDefinition, TableInput } from '../../../../domain/tables';
import { anyInput, inputFor, validTable } from '../../../support/tableArbitraries';
import type { Walk } from '../refusesBeforeDice';

interface Material {
  tables: TableDefinition[];
  /** per table, inputs it accepts */
  accepted: TableInput[][];
  /** inputs of any kind, most of them refused */
  wild: TableInput[];
}

const tables = fc.uniqueArray(validTable(), { minLength: 1, maxLength: 3, selector: (t) => t.id });

/** PassTurn now and then; Resolve on random valid tables, with inputs each accepts, any input at all, and ids the game does not have. */
export const tableWalk: Walk<Material> = {
  game: fc.oneof(
    { weight: 19, arbitrary: tables },
    // A game recorded before creations needed a table: every Resolve is refused.
    { weight: 1, arbitrary: fc.constant<TableDefinition[]>([]) },
  ).chain((list) =>
    fc
      .record({
        accepted: fc.tuple(...list.map((t) => fc.array(inputFor(t).map((x) => x.input), { minLength: 3, maxLength: 3 }))).map((perTable): TableInput[][] => [...perTable]),
        wild: fc.array(anyInput(), { minLength: 3, maxLength: 3 }),
      })
      .map(({ accepted, wild }) => ({ options: { tables: list }, material: { tables: list, accepted, wild } })),
  ),
  next(_state, d, { tables: list, accepted, wild }, _seq, sides) {
    const actor = d.pick([...sides, 'organizer']);
    if (d.chance(0.1)) return { actor, type: 'PassTurn', payload: { to: d.pick([...sides, 'no-such-side']) } };
    const index = list.length ? d.int(0, list.length - 1) : -1;
    const table = index >= 0 && d.chance(0.9) ? list[index].id : 'no-such-table';
    const input = index >= 0 && d.chance(0.75) ? d.pick(accepted[index]) : d.pick(wild);
    return { actor, type: 'Resolve', payload: { table, ...input, ...(d.chance(0.3) ? { purpose: 'attack on 0912' } : {}) } };
  },
  rolling: ['Resolve'],
};
