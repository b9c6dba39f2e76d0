import { readFileSync } from 'node:fs';

/** The source prints some letters with look-alikes: Cyrillic А В С Е, Greek Α Μ. */
const LOOK_ALIKES: Record<string, string> = { '\u0410': 'A', '\u0412': 'B', '\u0421': 'C', '\u0415': 'E', '\u0391': 'A', '\u039c': 'M' };
export const toAscii = (text: string) => text.replace(/[\u0410\u0412\u0421\u0415\u0391\u039c]/g, (ch) => LOOK_ALIKES[ch]);

const rows = (name: string) =>
  readFileSync(new URL(`fixtures/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'))
    .map((line) => toAscii(line).split('\t').map((cell) => cell.trim()));

/** Table 1 as the source prints it: [die][column] = { setPiece, mobile }. */
export function sourceTable1() {
  return rows('table1.source.txt').map((cells) => {
    const letters = cells.slice(1).filter(Boolean);
    return Array.from({ length: 9 }, (_, column) => ({ setPiece: letters[2 * column], mobile: letters[2 * column + 1] }));
  });
}

/** Table 3 as the source prints it: two rows per ratio result 1–5. */
export function sourceTable3() {
  const lines = rows('table3.source.txt');
  return Array.from({ length: 5 }, (_, i) => {
    const [low, high] = [lines[2 * i], lines[2 * i + 1]];
    const parse = (cells: string[]) => ({ setPiece: cells.slice(1, 7).join(''), mobileRange: cells[7], mobile: cells.slice(8, 14).join('') });
    return { ratioResult: i + 1, low: parse(low), high: parse(high) };
  });
}
