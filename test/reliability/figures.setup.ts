import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { FIGURES_FILE } from './figures';

const DOC = new URL('../../docs/reliability.md', import.meta.url);
const START = '<!-- last-run:start -->';
const END = '<!-- last-run:end -->';

export function setup() {
  rmSync(FIGURES_FILE, { force: true });
}

/**
 * Writes the figures of this run into docs/reliability.md, between its markers, when asked
 * (UPDATE_DOCS=1): a test run never dirties a checkout. They are always in FIGURES_FILE.
 */
export function teardown() {
  if (process.env.UPDATE_DOCS !== '1' || !existsSync(FIGURES_FILE)) return;
  const figures = readFileSync(FIGURES_FILE, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { section: string; name: string; value: string | number });
  const lines = [START, '', `Last run: ${new Date().toISOString()}, Node ${process.version}.`, ''];
  for (const section of [...new Set(figures.map((f) => f.section))]) {
    lines.push(`**${section}**`, '', '| figure | value |', '|---|---|');
    for (const f of figures.filter((x) => x.section === section)) lines.push(`| ${f.name} | ${typeof f.value === 'number' ? f.value.toLocaleString('en-US') : f.value} |`);
    lines.push('');
  }
  lines.push(END);
  const doc = readFileSync(DOC, 'utf8');
  const before = doc.split(START)[0];
  const after = doc.includes(END) ? doc.split(END)[1] : '\n';
  writeFileSync(DOC, `${before}${lines.join('\n')}${after}`);
}
