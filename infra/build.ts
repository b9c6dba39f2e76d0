// `npm run build`: writes every Lambda bundle to dist/lambda/<name>/ and prints its size.
import { build } from 'esbuild';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { BUNDLE, LAMBDA_ENTRIES, type LambdaName } from './bundling';

export async function buildBundles(outDir = 'dist/lambda'): Promise<Record<LambdaName, { file: string; bytes: number }>> {
  const results = {} as Record<LambdaName, { file: string; bytes: number }>;
  for (const [name, entry] of Object.entries(LAMBDA_ENTRIES) as [LambdaName, string][]) {
    const file = join(outDir, name, BUNDLE.outFile);
    await build({
      entryPoints: [entry],
      outfile: file,
      bundle: true,
      platform: 'node',
      target: BUNDLE.target,
      format: BUNDLE.format,
      minify: BUNDLE.minify,
      sourcemap: BUNDLE.sourceMap,
      mainFields: BUNDLE.mainFields,
      banner: { js: BUNDLE.banner },
      external: BUNDLE.externalModules,
      alias: BUNDLE.alias,
      logLevel: 'warning',
    });
    results[name] = { file, bytes: statSync(file).size };
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const results = await buildBundles();
  let over = false;
  for (const [name, { file, bytes }] of Object.entries(results)) {
    const kb = (bytes / 1024).toFixed(1);
    const ok = bytes <= BUNDLE.maxBytes;
    over ||= !ok;
    console.log(`${name.padEnd(10)} ${kb.padStart(7)} KB  ${file}${ok ? '' : `  (over the ${BUNDLE.maxBytes / 1024} KB limit)`}`);
  }
  if (over) process.exitCode = 1;
}
