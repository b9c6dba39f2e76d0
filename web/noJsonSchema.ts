import type { Plugin } from 'esbuild';
import { readFileSync } from 'node:fs';

/**
 * zod's JSON Schema generation (about 19 KB minified, 5 KB gzipped) in place of which the web
 * app's scripts get stubs: every zod schema references it, so esbuild cannot drop it, yet the
 * browser never makes a JSON Schema (the server does, for /openapi.json and GET /rulesets).
 * Each export is kept by name; calling one throws. `~standard`'s jsonSchema methods are made
 * (and throw only when called); introspection reads no checks.
 */
export const noJsonSchema: Plugin = {
  name: 'no-json-schema',
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
          "const unavailable = () => { throw new Error('JSON Schema is not made in the web app'); };",
          ...names.map((name) => `export const ${name} = ${stub(name)};`),
          ...aliases,
        ].join('\n'),
      };
    });
  },
};
