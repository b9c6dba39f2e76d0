import { build, type Metafile } from 'esbuild';
import { rmSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { esbuildOptions } from './bundling';

export interface FunctionBundle {
  /** The entry file (index.mjs) Lambda loads. */
  file: string;
  /** What a cold start loads: the entry file and every chunk it imports statically, transitively. */
  bytes: number;
  coldStart: { file: string; bytes: number }[];
  /** Chunks only an import() reaches (a ruleset, a route's own code): loaded when a request needs them. */
  onDemand: { file: string; bytes: number }[];
}

/** Sorts a split build's outputs into what the entry loads at once and what it loads on demand. */
export function coldStartOf(metafile: Metafile, entryFile: string): Omit<FunctionBundle, 'file'> {
  const outputs = new Map(Object.entries(metafile.outputs).filter(([file]) => file.endsWith('.mjs') || file.endsWith('.js')).map(([file, output]) => [resolve(file), output]));
  const entry = resolve(entryFile);
  if (!outputs.has(entry)) throw new Error(`${entryFile} is not among the build's outputs`);
  const loaded = new Set<string>();
  const visit = (file: string) => {
    if (loaded.has(file)) return;
    loaded.add(file);
    for (const imported of outputs.get(file)!.imports) if (imported.kind === 'import-statement' && !imported.external) visit(resolve(imported.path));
  };
  visit(entry);
  const sized = (file: string) => ({ file, bytes: statSync(file).size });
  const coldStart = [...loaded].map(sized);
  return {
    bytes: coldStart.reduce((sum, chunk) => sum + chunk.bytes, 0),
    coldStart,
    onDemand: [...outputs.keys()].filter((file) => !loaded.has(file)).map(sized),
  };
}

/** Builds one function's entry with the project's settings (bundling.ts) into the directory of `outfile`, emptied first, and sizes its cold start. */
export async function buildFunctionBundle(entry: string, outfile: string): Promise<FunctionBundle> {
  // Chunks are named by their hash: an earlier build's would stay beside the new ones.
  rmSync(dirname(outfile), { recursive: true, force: true });
  const { metafile } = await build(esbuildOptions(entry, outfile));
  return { file: outfile, ...coldStartOf(metafile!, outfile) };
}

/** A chunk's name for a listing: its path inside the function's directory. */
export const chunkName = (bundle: FunctionBundle, file: string) => relative(resolve(bundle.file, '..'), file);
