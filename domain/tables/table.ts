import type { ColumnKind } from './labels';
import type { TableRow } from './rows';

// What a table is, as types: semantics.ts checks one and definition.ts reads one,
// and both take these from here rather than from each other.

/** The format every table names in its `format` field. */
export const TABLE_FORMAT = 'arbiter-table/1';

export type LandingPolicy = 'defender' | 'attacker' | 'nearest-defender' | 'nearest-attacker';
export type ShiftPastPolicy = 'clamp' | 'die-modifier' | 'refuse';

export interface TableColumns {
  kind: ColumnKind;
  labels: string[];
  landing: LandingPolicy;
  belowFirst: 'refuse' | 'first-column';
  aboveLast: 'refuse' | 'last-column';
  shiftPastLeft: ShiftPastPolicy;
  shiftPastRight: ShiftPastPolicy;
}

export interface TableEffect {
  effect: string;
  side?: 'attacker' | 'defender';
  value?: number;
  note?: string;
}

export interface TableResult {
  code: string;
  description?: string;
  effects: TableEffect[];
}

export type TableDefinition = {
  format: typeof TABLE_FORMAT;
  id: string;
  title: string;
  source?: string;
  example?: boolean;
  dice: string;
  columns: TableColumns;
  rows?: TableRow[];
  rowsOffTable?: 'clamp' | 'refuse';
  results: TableResult[];
  cells: string[][];
};
