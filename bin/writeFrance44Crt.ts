/**
 * Writes docs/examples/tables/france44-crt-{set-piece,mobile}.json from the France 1944 ruleset's
 * Table 1 (domain/rulesets/france44/tables.ts), the one place it is written:
 *   node --import tsx bin/writeFrance44Crt.ts
 * test/domain/rulesets/france44/crtAsData.test.ts fails while the files differ from it.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { revisedCombatTableAsData } from '../domain/rulesets/france44/crtAsData';
import { COMBAT_KINDS, type CombatKind } from '../domain/rulesets/france44/tables';

export const KINDS: readonly CombatKind[] = COMBAT_KINDS;

export const exampleFile = (kind: CombatKind) => new URL(`../docs/examples/tables/france44-crt-${kind}.json`, import.meta.url);

const oneLine = (value: object) => `{ ${Object.entries(value).map(([key, v]) => `${JSON.stringify(key)}: ${JSON.stringify(v)}`).join(', ')} }`;

/** JSON laid out for reading: one line per table row, the short lists on one line. */
function layout(value: unknown, indent: string, key?: string): string {
  if (Array.isArray(value)) {
    if (key === 'rows') return `[${value.map((row) => JSON.stringify(row)).join(', ')}]`;
    if (key === 'effects') return `[${value.map((effect: object) => oneLine(effect)).join(', ')}]`;
    if (value.every((item) => typeof item !== 'object' || item === null)) return JSON.stringify(value);
    const inner = `${indent}  `;
    return `[\n${value.map((item) => inner + layout(item, inner)).join(',\n')}\n${indent}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const inner = `${indent}  `;
    return `{\n${Object.entries(value).map(([k, v]) => `${inner}${JSON.stringify(k)}: ${layout(v, inner, k)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** The text of docs/examples/tables/france44-crt-<kind>.json. */
export function exampleText(kind: CombatKind): string {
  return `${layout(revisedCombatTableAsData(kind), '')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const kind of KINDS) writeFileSync(exampleFile(kind), exampleText(kind));
}
