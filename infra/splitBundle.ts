// `node --import tsx infra/splitBundle.ts <entry> <asset dir>`: the stack's afterBundling step
// (infra/bundling.ts functionBundling). Replaces NodejsFunction's one-file bundle in the asset
// with the split build of the same entry: index.mjs and its chunks.
import { build } from 'esbuild';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE, esbuildOptions } from './bundling';

const [entry, assetDir] = process.argv.slice(2);
if (!entry || !assetDir) throw new Error('usage: splitBundle.ts <entry> <asset dir>');
// NodejsFunction's one file goes: the split build replaces it.
for (const file of existsSync(assetDir) ? readdirSync(assetDir) : []) rmSync(join(assetDir, file), { recursive: true, force: true });
await build(esbuildOptions(entry, join(assetDir, BUNDLE.outFile)));
