import { build, type Plugin } from 'esbuild';
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
