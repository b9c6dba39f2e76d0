import { build, type Plugin } from 'esbuild';
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NODE_PRIMITIVES = fileURLToPath(new URL('../domain/crypto/primitives.ts', import.meta.url));
const BROWSER_PRIMITIVES = fileURLToPath(new URL('../domain/crypto/browserPrimitives.ts', import.meta.url));

const ENTRY = `
export { verifyExport, examineExport } from './domain/verify/verifyExport.ts';
export { parseStrictJson } from './domain/json/parseStrictJson.ts';
`;

/**
 * The verifier for a web page, as one ES module: `verifyExport`, `examineExport` and
 * `parseStrictJson`, with the crypto port's browser implementation. Fails if anything
 * it reaches imports a Node built-in. Built in memory: cache the text when serving it.
 */
export function buildBrowserVerifier(): Promise<string> {
  return bundleForBrowser(ENTRY);
}

/** How every browser bundle is built: in memory, minified, with the browser crypto and no Node built-ins. */
export const BROWSER_BUILD = {
  bundle: true,
  write: false,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  minify: true,
  logLevel: 'silent',
} as const;

/** `source`, a module resolved from the repository root, bundled as buildBrowserVerifier bundles the verifier. */
export async function bundleForBrowser(source: string): Promise<string> {
  const result = await build({
    ...BROWSER_BUILD,
    stdin: { contents: source, resolveDir: ROOT, sourcefile: 'browser-verifier-entry.ts', loader: 'ts' },
    plugins: BROWSER_PLUGINS,
  });
  return result.outputFiles[0].text;
}

// The domain imports the port by a relative path, which esbuild's `alias` option cannot
// rewrite (it only takes package names): this plugin does what the alias would.
const browserPrimitives: Plugin = {
  name: 'browser-primitives',
  setup(b) {
    b.onResolve({ filter: /\/primitives(\.ts)?$/ }, async (args) => {
      if (args.pluginData === 'resolving') return undefined;
      const resolved = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'resolving' });
      return resolved.path === NODE_PRIMITIVES ? { path: BROWSER_PRIMITIVES } : resolved;
    });
  },
};

const BUILTINS = new Set(builtinModules);

const noNodeBuiltins: Plugin = {
  name: 'no-node-builtins',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      const bare = args.path.replace(/^node:/, '').split('/')[0];
      if (!args.path.startsWith('node:') && !BUILTINS.has(bare)) return undefined;
      return { errors: [{ text: `a browser has no Node module "${args.path}" (imported by ${args.importer || 'the entry'})` }] };
    });
  },
};

/** The two plugins every browser bundle uses: the crypto port's browser implementation, and no Node built-ins. */
export const BROWSER_PLUGINS: Plugin[] = [browserPrimitives, noNodeBuiltins];

/**
 * zod's JSON Schema generation (about 19 KB minified, 5 KB gzipped), replaced by stubs in the
 * web app's scripts and the standalone verifier: every zod schema references it, so esbuild
 * cannot drop it, yet neither ever makes a JSON Schema (the server does, for /openapi.json and
 * GET /rulesets). Each export is kept by name; calling one throws. `~standard`'s jsonSchema
 * methods are made (and throw only when called); introspection reads no checks.
 */
export const withoutJsonSchema: Plugin = {
  name: 'without-json-schema',
  setup(b) {
    b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]core[\\/](json-schema-processors|to-json-schema)\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const names = [...source.matchAll(/^export (?:const|function) (\w+)/gm)].map((m) => m[1]);
      const aliases = [...source.matchAll(/^export \{ (\w+) as (\w+) \}/gm)].map((m) => `export { ${m[1]} as ${m[2]} };`);
      const stub = (name: string) =>
        name === 'aggregateChecks' ? '() => ({})' : /^create\w*Method$/.test(name) ? '() => unavailable' : 'unavailable';
      return {
        loader: 'js',
        contents: [
          "const unavailable = () => { throw new Error('JSON Schema is not made here: only the server makes it'); };",
          ...names.map((name) => `export const ${name} = ${stub(name)};`),
          ...aliases,
        ].join('\n'),
      };
    });
  },
};
