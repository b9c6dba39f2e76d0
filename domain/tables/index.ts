// Declarative combat tables (arbiter-table/1): everything but the JSON Schema, which
// stays in jsonSchema.ts so that bundles that do not serve it do not carry it.
export * from './definition';
export * from './validate';
export * from './hash';
export * from './resolve';
export { readLabel, columnValues, LABEL_HELP } from './labels';
export { readDice, naturalRolls, rowBounds, rowHolding, nearestRow, type TableDice } from './rows';
export { checkTable, type TableIssue } from './semantics';
