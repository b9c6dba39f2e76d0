import type { DiceSource } from '../../dice';
import { RuleViolation } from '../../errors';
import { landOnTable, naturalRolls, nearestRow, readDice, resolveOnTable, rowHolding, tableRule, type TableDefinition, type TableInput, type TableResolution } from '../../tables';
import { NOT_IN_SOURCE } from './exampleTables';

/**
 * Tables whose cells may be marked "not in the source" (effect `not-in-source`), as the
 * bundled example tables are: what the resolution may land on is checked before any die.
 *
 * - A lookup without dice that lands on such a cell is refused (422): nothing is rolled.
 * - A roll whose every possible result is such a cell is refused before the dice (422).
 * - Otherwise the dice are rolled and recorded; a roll landing on such a cell is recorded
 *   as `unproven`, with no effect (ruling): refusing after the dice would tell the player
 *   what this commit's dice are before any commit holds them.
 */
export type CoveredResolution = TableResolution & { unproven: boolean };

const unprovenCode = (table: TableDefinition, code: string) => table.results.find((r) => r.code === code)?.effects.some((e) => e.effect === NOT_IN_SOURCE) ?? false;

function refuse(table: TableDefinition, where: string): never {
  throw new RuleViolation(
    `${JSON.stringify(table.title)} does not show ${where}: it holds only what its source proves. Bring the full table as data to resolve this.`,
    tableRule(table, 'cell not in the source'),
  );
}

/** Refuses, before any die, an input whose every possible result is a cell the source does not show. */
export function checkCovered(table: TableDefinition, input: TableInput): void {
  const landing = landOnTable(table, input);
  const column = landing.column.index;
  const dice = readDice(table.dice);
  if (!dice || dice.kind === 'none') {
    if (unprovenCode(table, table.cells[0][column])) refuse(table, `the result at ${landing.column.label}`);
    return;
  }
  const rows = table.rows ?? [];
  const total = (input.modifiers ?? []).reduce((s, m) => s + m.value, 0) + landing.dieModifier;
  const reachable = naturalRolls(dice)
    .map((natural) => {
      const held = rowHolding(rows, natural + total);
      return held >= 0 ? held : table.rowsOffTable === 'clamp' ? nearestRow(rows, natural + total) : -1;
    })
    .filter((row) => row >= 0);
  // Rolls off the rows of a table that refuses them: resolveOnTable says so itself.
  if (reachable.length > 0 && reachable.every((row) => unprovenCode(table, table.cells[row][column]))) {
    refuse(table, `any result at ${landing.column.label} with die modifiers of ${total > 0 ? '+' : ''}${total}`);
  }
}

export function resolveCovered(table: TableDefinition, input: TableInput, dice: DiceSource): CoveredResolution {
  checkCovered(table, input);
  const resolution = resolveOnTable(table, input, dice);
  return { ...resolution, unproven: unprovenCode(table, resolution.code) };
}

/** The sum of the values of one effect (for one side, when given). */
export function effectTotal(resolution: TableResolution, effect: string, side?: 'attacker' | 'defender'): number {
  return resolution.effects.filter((e) => e.effect === effect && (side === undefined || e.side === undefined || e.side === side)).reduce((s, e) => s + (e.value ?? 0), 0);
}
