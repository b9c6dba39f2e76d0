import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exampleFile, exampleText, KINDS } from '../../../../bin/writeFrance44Crt';
import { revisedCombatTableAsData } from '../../../../domain/rulesets/france44/crtAsData';
import { combatTableResult, ODDS_COLUMNS } from '../../../../domain/rulesets/france44/tables';
import { tableHash, validateTable } from '../../../../domain/tables';

describe('the France 1944 CRT published as data', () => {
  it.each(KINDS)('docs/examples/tables/france44-crt-%s.json is the ruleset\'s Table 1, written out (node --import tsx bin/writeFrance44Crt.ts)', (kind) => {
    const published = readFileSync(exampleFile(kind), 'utf8');
    expect(published).toBe(exampleText(kind));
    expect(JSON.parse(published)).toEqual(revisedCombatTableAsData(kind));
  });

  it.each(KINDS)('as derived for %s combats, is a valid table that reads every cell as the ruleset does', (kind) => {
    const validation = validateTable(revisedCombatTableAsData(kind));
    if (!validation.ok) throw new Error(JSON.stringify(validation.issues));
    const table = validation.table;
    expect(tableHash(table)).toBe(tableHash(JSON.parse(readFileSync(exampleFile(kind), 'utf8'))));
    for (let die = 1; die <= 6; die++) {
      for (let column = 0; column < ODDS_COLUMNS.length; column++) expect(table.cells[die - 1][column]).toBe(combatTableResult(die, column, kind));
    }
  });
});
