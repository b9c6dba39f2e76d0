#!/usr/bin/env node
/*
 * npm run test:ruleset -- <ruleset>   e.g. npm run test:ruleset -- france44
 *
 * The loop for one ruleset: its domain tests (test/domain/rulesets/<ruleset>/), its HTTP tests
 * (test/http/rulesets/<ruleset>.test.ts) and the other tests named after it (test/domain/tables/
 * france44Crt.test.ts, test/http/diceGame.test.ts). Extra arguments go to vitest (-t, --watch...).
 * An unknown name is refused with the list of rulesets, rather than running nothing.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rulesets = readdirSync(join(root, 'domain', 'rulesets'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

const [name, ...vitestArguments] = process.argv.slice(2);
if (!name || !rulesets.includes(name)) {
  console.error(`${name ? `No ruleset "${name}". ` : ''}Usage: npm run test:ruleset -- <ruleset> [vitest options]\nRulesets: ${rulesets.join(', ')}`);
  process.exit(2);
}

const testFilesIn = (folder, keep) =>
  existsSync(join(root, folder))
    ? readdirSync(join(root, folder), { recursive: true })
        .map(String)
        .filter((file) => file.endsWith('.test.ts') && keep(file))
        .map((file) => join(folder, file))
    : [];

const files = [
  ...testFilesIn(join('test', 'domain', 'rulesets', name), () => true),
  ...testFilesIn(join('test', 'domain', 'tables'), (file) => file.startsWith(name)),
  ...testFilesIn(join('test', 'http', 'rulesets'), (file) => file === `${name}.test.ts`),
  ...testFilesIn(join('test', 'http'), (file) => !file.includes('/') && file.startsWith(name)),
];
console.log(`Ruleset ${name}: ${files.length} test files\n  ${files.map((file) => relative(root, join(root, file))).join('\n  ')}`);

const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const run = spawnSync(process.execPath, [vitest, 'run', ...files, ...vitestArguments], { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
