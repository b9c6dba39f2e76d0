import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export const FIGURES_FILE = join(process.env.ARBITER_FIGURES_DIR ?? join(process.cwd(), '.arbiter-data', 'reliability'), 'figures.jsonl');

/** Records one figure of this run, for docs/reliability.md. */
export function figure(section: string, name: string, value: string | number): void {
  mkdirSync(join(FIGURES_FILE, '..'), { recursive: true });
  appendFileSync(FIGURES_FILE, `${JSON.stringify({ section, name, value })}\n`);
}
