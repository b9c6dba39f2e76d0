// A list of items (an order of battle) pasted as CSV (a header line naming the fields, then
// one line per item) or as a JSON list, each row checked against the item's schema, and each
// problem naming its row: "row 3: `maxLp` must be a whole number from 1 to 99".
import { objectProblem } from './schemaCheck';
import type { JsonSchema } from './jsonSchema';

export interface PastedRows {
  rows: Record<string, unknown>[];
  /** One line per row that is wrong, at most MAX_PROBLEMS of them. */
  problems: string[];
}

const MAX_PROBLEMS = 5;
const MAX_ROWS = 5000;

/** Splits CSV text into lines of cells: quoted cells may hold the delimiter, "" is a quote. */
export function csvCells(text: string, delimiter: string): string[][] {
  const lines: string[][] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (c === delimiter) {
      cells.push(cell.trim());
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      cells.push(cell.trim());
      if (cells.some((x) => x !== '')) lines.push(cells);
      cells = [];
      cell = '';
    } else cell += c;
  }
  cells.push(cell.trim());
  if (cells.some((x) => x !== '')) lines.push(cells);
  return lines;
}

const typesOf = (schema: JsonSchema | undefined): string[] => {
  if (!schema) return [];
  const own = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
  const branches = (schema.anyOf ?? schema.oneOf ?? []).flatMap(typesOf);
  const fromEnum = (schema.enum ?? []).map((v) => typeof v);
  return [...own, ...branches, ...fromEnum];
};

/** A cell as the field's schema wants it: a number, true/false, a JSON list, or the text. Empty: left out. */
function cellValue(cell: string, schema: JsonSchema | undefined): unknown {
  if (cell === '') return undefined;
  const wanted = typesOf(schema);
  if ((cell.startsWith('[') || cell.startsWith('{')) && !wanted.includes('string')) {
    try {
      return JSON.parse(cell);
    } catch {
      return cell;
    }
  }
  if (wanted.some((t) => t === 'integer' || t === 'number') && /^[+-]?\d+(\.\d+)?$/.test(cell)) return Number(cell);
  if (wanted.includes('boolean')) {
    if (/^(true|yes)$/i.test(cell)) return true;
    if (/^(false|no)$/i.test(cell)) return false;
  }
  return cell;
}

function fromCsv(text: string, item: JsonSchema): Record<string, unknown>[] | string {
  const firstLine = text.split('\n', 1)[0];
  const delimiter = firstLine.includes('\t') ? '\t' : firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',';
  const [header, ...lines] = csvCells(text, delimiter);
  if (!header) return 'nothing to read';
  const properties = item.properties ?? {};
  const unknown = header.find((name) => !Object.prototype.hasOwnProperty.call(properties, name));
  if (unknown !== undefined) return `the header names \`${unknown}\`, which is not a field (fields: ${Object.keys(properties).join(', ')})`;
  return lines.map((cells) => {
    const row: Record<string, unknown> = {};
    header.forEach((name, i) => {
      const value = cellValue(cells[i] ?? '', properties[name]);
      if (value !== undefined) row[name] = value;
    });
    if (cells.length > header.length) row['(extra cells)'] = cells.slice(header.length).join(', ');
    return row;
  });
}

export function readPastedRows(text: string, item: JsonSchema): PastedRows {
  const trimmed = text.trim();
  if (trimmed === '') return { rows: [], problems: [] };
  let rows: unknown[];
  if (trimmed.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (!Array.isArray(parsed)) return { rows: [], problems: ['this is not a JSON list'] };
      rows = parsed;
    } catch {
      return { rows: [], problems: ['this starts like a JSON list but is not valid JSON'] };
    }
  } else {
    const read = fromCsv(trimmed, item);
    if (typeof read === 'string') return { rows: [], problems: [read] };
    rows = read;
  }
  if (rows.length > MAX_ROWS) return { rows: [], problems: [`${rows.length} rows: at most ${MAX_ROWS}, please`] };
  const problems: string[] = [];
  rows.forEach((row, i) => {
    if (problems.length >= MAX_PROBLEMS) return;
    if (typeof row !== 'object' || row === null || Array.isArray(row)) return void problems.push(`row ${i + 1}: not an object with named fields`);
    if (Object.prototype.hasOwnProperty.call(row, '(extra cells)')) return void problems.push(`row ${i + 1}: more cells than the header names`);
    const problem = objectProblem(row as Record<string, unknown>, item);
    if (problem) problems.push(`row ${i + 1}: ${problem}`);
  });
  return { rows: rows as Record<string, unknown>[], problems };
}
