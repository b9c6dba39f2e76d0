// The order-of-battle paste, as the browser runs it (no DOM): CSV or JSON rows checked
// against the catalogue's JSON Schema of one unit, each problem naming its row.
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../functions/http/catalogue';
import type { JsonSchema } from '../../web/app/jsonSchema';
import { csvCells, readPastedRows } from '../../web/app/pastedRows';

const wb = catalogue().rulesets.find((r) => r.id === 'wars-and-battles')!;
const unit = (wb.options as JsonSchema).properties!.units.items!;
const HEADER = 'unitId,side,kind,quality,maxLp,attack';

describe('a pasted order of battle', () => {
  it('reads CSV cells as the schema wants them: numbers, lists, quoted text with commas and quotes', () => {
    expect(csvCells('a,"b, c","say ""hi"""\n\n1,2,3\r\n', ',')).toEqual([['a', 'b, c', 'say "hi"'], ['1', '2', '3']]);
    const read = readPastedRows(`${HEADER},division\nu1,axis,armored,elite,8,"[6,7,8,9]","352nd, ""Kampfgruppe"""`, unit);
    expect(read).toEqual({ rows: [{ unitId: 'u1', side: 'axis', kind: 'armored', quality: 'elite', maxLp: 8, attack: [6, 7, 8, 9], division: '352nd, "Kampfgruppe"' }], problems: [] });
  });

  it('names each wrong row, in the words of the schema, and at most five of them', () => {
    const rows = ['u1,axis,armored,elite,8,1', 'u2,axis,armored,elite,100,1', 'u3,german,armored,elite,8,1', 'u4,axis,armored,elite,8.5,1', ',axis,armored,elite,8,1'];
    expect(readPastedRows([HEADER, ...rows].join('\n'), unit).problems).toEqual([
      'row 2: `maxLp` must be a whole number from 1 to 99',
      'row 3: `side` must be one of: allied, axis',
      'row 4: `maxLp` must be a whole number from 1 to 99',
      'row 5: `unitId` is missing',
    ]);
    const many = Array.from({ length: 9 }, (_, i) => `u${i},axis,armored,elite,0,1`);
    expect(readPastedRows([HEADER, ...many].join('\n'), unit).problems).toHaveLength(5);
  });

  it('refuses a header naming no field, a row longer than its header, and JSON that is not a list of objects', () => {
    expect(readPastedRows('unitId,colour\nu1,red', unit).problems).toEqual(['the header names `colour`, which is not a field (fields: ' + Object.keys(unit.properties!).join(', ') + ')']);
    expect(readPastedRows(`${HEADER}\nu1,axis,armored,elite,8,1,extra`, unit).problems).toEqual(['row 1: more cells than the header names']);
    expect(readPastedRows('[1, {"unitId": "u"}]', unit).problems).toEqual(['row 1: not an object with named fields', 'row 2: `side` is missing']);
    expect(readPastedRows('[{"__proto__": {"x": 1}, "unitId": "u", "side": "axis", "kind": "other", "quality": "elite", "maxLp": 1}]', unit).problems[0]).toMatch(/^row 1: `__proto__` is not a field here/);
    expect(readPastedRows('[{"unitId": ', unit).problems).toEqual(['this starts like a JSON list but is not valid JSON']);
  });

  it('takes a JSON list as the API would', () => {
    const units = [{ unitId: 'u1', side: 'allied', kind: 'infantry', quality: 'veteran', maxLp: 12, attack: [1, 2, 3, 4] }];
    expect(readPastedRows(JSON.stringify(units), unit)).toEqual({ rows: units, problems: [] });
  });
});
