// The bench's bundle rows: each Lambda function built as the stack builds it (infra/bundling.ts),
// what its cold start loads, and the time its import takes in a started Node process, wall and CPU.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE } from '../infra/bundling';
import { buildFunctionBundle } from '../infra/coldStart';
import { FUNCTION_ENTRIES } from '../infra/functionEntries';
import type { BenchRow } from './benchRow';

export type BundleRow = BenchRow & { section: 'Bundles' };


const IMPORT_TARGET_MS = 150;
const RUNS = 5;

/** One import of `file` in a fresh Node process: its wall time and the CPU time (user + system) the process spent meanwhile, in ms. */
function importOnce(file: string): { wallMs: number; cpuMs: number } {
  const script = `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(file)}); const wallMs = performance.now() - t; const u = process.cpuUsage(c); console.log(JSON.stringify({ wallMs, cpuMs: (u.user + u.system) / 1000 }));`;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, AWS_REGION: 'eu-west-1' } }).toString();
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

/** The median wall and CPU times of RUNS imports. */
export function importTimes(file: string): { wallMs: number; cpuMs: number } {
  const runs = Array.from({ length: RUNS }, () => importOnce(file));
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
  return { wallMs: median(runs.map((r) => r.wallMs)), cpuMs: median(runs.map((r) => r.cpuMs)) };
}

export async function bundleRows(dir: string, log: (row: BundleRow) => void): Promise<void> {
  const empty = join(dir, 'empty.mjs');
  writeFileSync(empty, 'export const handler = () => {};\n');
  const floor = importTimes(empty);
  for (const [name, entry] of Object.entries(FUNCTION_ENTRIES)) {
    const bundle = await buildFunctionBundle(entry, join(dir, 'lambda', name, BUNDLE.outFile));
    const onDemand = bundle.onDemand.reduce((sum, chunk) => sum + chunk.bytes, 0);
    log({
      section: 'Bundles',
      figure: `${name}: cold start (entry and static chunks; ${bundle.onDemand.length} chunks, ${Math.round(onDemand / 1024)} KB on demand)`,
      value: bundle.bytes / 1024,
      unit: 'KB',
      floor: { name: 'target', value: BUNDLE.maxBytes / 1024 },
      ratio: bundle.bytes / BUNDLE.maxBytes,
      target: `≤ ${BUNDLE.maxBytes / 1024} KB`,
      pass: bundle.bytes <= BUNDLE.maxBytes,
    });
    const { wallMs, cpuMs } = importTimes(bundle.file);
    log({ section: 'Bundles', figure: `${name}: import, wall time in a started Node process (median of ${RUNS})`, value: wallMs, unit: 'ms', floor: { name: 'an empty module', value: floor.wallMs }, target: `≤ ${IMPORT_TARGET_MS} ms`, pass: wallMs <= IMPORT_TARGET_MS });
    log({ section: 'Bundles', figure: `${name}: import, CPU time (user + system, median of ${RUNS})`, value: cpuMs, unit: 'ms', floor: { name: 'an empty module', value: floor.cpuMs }, target: `≤ ${IMPORT_TARGET_MS} ms`, pass: cpuMs <= IMPORT_TARGET_MS });
  }
}
