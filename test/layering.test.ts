import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

// npm test runs the layering rules (.dependency-cruiser.cjs) on the code itself, which passes
// them: these tests show the rules do catch what they name, on a small tree built for it.

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const made: string[] = [];
afterAll(() => {
  for (const folder of made) rmSync(folder, { recursive: true, force: true });
});

function tree(files: Record<string, string>): { folder: string; tops: string[] } {
  const folder = mkdtempSync(join(tmpdir(), 'arbiter-layers-'));
  made.push(folder);
  symlinkSync(join(root, 'node_modules'), join(folder, 'node_modules'), 'dir');
  writeFileSync(join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true } }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), text);
  }
  return { folder, tops: [...new Set(Object.keys(files).map((path) => path.split('/')[0]))] };
}

/** The violations the project's rules find in the tree, as "rule: from -> to" (a package by its name, a circle once). */
function violations({ folder, tops }: { folder: string; tops: string[] }): string[] {
  const cli = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  const config = join(root, '.dependency-cruiser.cjs');
  const run = spawnSync(process.execPath, [cli, ...tops, '--config', config, '--no-cache', '--output-type', 'json'], {
    cwd: folder,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.stdout, run.stderr).not.toBe('');
  const result = JSON.parse(run.stdout) as { summary: { violations: { rule: { name: string }; from: string; to: string }[] } };
  const shown = (to: string) => to.replace(/^.*\bnode_modules\/((@[^/]+\/)?[^/]+)\/.*$/, '$1');
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} -> ${shown(v.to)}`).sort();
}

const exporting = (imports: string[]) => `${imports.map((from, i) => `import * as m${i} from '${from}';`).join('\n')}\nexport const used = [${imports.map((_, i) => `m${i}`).join(', ')}];\n`;

describe('the layering rules', () => {
  it('catch a circle, node: or a platform package in the domain, and the verifier, web app and adapters reaching past their layer', () => {
    const built = tree({
      'domain/a.ts': exporting(['./b']),
      'domain/b.ts': exporting(['./a']),
      'domain/leak.ts': exporting(['node:fs']),
      'domain/platform.ts': exporting(['@aws-sdk/client-dynamodb', 'zod']),
      'domain/outward.ts': exporting(['../functions/http/handler']),
      'domain/dice.ts': exporting(['./fairness/stream']),
      'domain/fairness/stream.ts': 'export const stream = 1;\n',
      'domain/fairness/back.ts': exporting(['../dice']),
      'verifier/check.ts': exporting(['../domain/fairness/stream', '../functions/http/handler']),
      'verifier/middle.ts': exporting(['@middy/core']),
      'web/app/page.ts': exporting(['../../domain/fairness/stream', '../../verifier/check']),
      'functions/http/handler.ts': exporting(['../store/dynamoStore']),
      'functions/store/dynamoStore.ts': exporting(['../application/service']),
      'functions/application/service.ts': 'export const service = 1;\n',
      'functions/local/server.ts': exporting(['../lambda/handler']),
      'functions/lambda/handler.ts': 'export const handler = 1;\n',
    });
    expect(violations(built)).toEqual([
      'core-uses-store-ports: functions/http/handler.ts -> functions/store/dynamoStore.ts',
      'domain-few-packages: domain/platform.ts -> @aws-sdk/client-dynamodb',
      'domain-no-node-builtins: domain/leak.ts -> fs',
      'domain-stays-inside: domain/outward.ts -> functions/http/handler.ts',
      'fairness-below-dice: domain/fairness/back.ts -> domain/dice.ts',
      'local-apart-from-lambda: functions/local/server.ts -> functions/lambda/handler.ts',
      'no-circular: domain/a.ts -> domain/b.ts',
      'store-implements-application-ports-by-type: functions/store/dynamoStore.ts -> functions/application/service.ts',
      'verifier-few-packages: verifier/middle.ts -> @middy/core',
      'verifier-on-domain-only: verifier/check.ts -> functions/http/handler.ts',
      'web-app-on-domain-only: web/app/page.ts -> verifier/check.ts',
    ]);
  });

  it('allow what they name as exceptions, and type-only ports', () => {
    const built = tree({
      'domain/crypto/primitives.ts': exporting(['node:crypto']),
      'functions/application/gameService.ts': 'export class GameService {}\n',
      'functions/application/snapshots.ts': 'export interface SnapshotStore { put(): void }\n',
      'functions/store/dynamoSnapshots.ts': "import type { SnapshotStore } from '../application/snapshots';\nexport const store: SnapshotStore | undefined = undefined;\n",
      'functions/http/handler.ts': exporting(['../store/eventStore', '../application/gameService']),
      'functions/store/eventStore.ts': 'export interface EventStore { append(): void }\n',
    });
    expect(violations(built)).toEqual([]);
  });
});
