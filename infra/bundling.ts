import type { BuildOptions, Plugin } from 'esbuild';
import { readFileSync } from 'node:fs';
import { basename, dirname, extname } from 'node:path';
// Types only: infra/splitBundle.ts loads this file in each asset's bundling step, without the CDK.
import type { BundlingOptions, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import type { LambdaGroup } from '../functions/lambda/routeGroups';

/**
 * How every Lambda bundle is built, once: the CDK stack (NodejsFunction) and
 * `npm run build` both read this, so the bundle the tests load is the one deployed.
 */
export const LAMBDA_ENTRIES = {
  commands: 'functions/lambda/commands.ts',
  reads: 'functions/lambda/reads.ts',
  catalogue: 'functions/lambda/catalogue.ts',
  verifier: 'functions/lambda/verifier.ts',
  web: 'functions/lambda/web.ts',
  docs: 'functions/lambda/docs.ts',
} as const satisfies Record<LambdaGroup, string>;
export type LambdaName = keyof typeof LAMBDA_ENTRIES;

/** ESM bundles load `require` for the CommonJS parts of their dependencies. */
export const ESM_REQUIRE_BANNER = "import{createRequire as __arbiterRequire}from'node:module';const require=__arbiterRequire(import.meta.url);";

export const BUNDLE = {
  minify: true,
  sourceMap: true,
  /** nodejs22.x runs it; node20 keeps it loadable on this machine's Node 20 too. */
  target: 'node20',
  format: 'esm' as const,
  /** ESM entry points of the AWS SDK and zod tree-shake far better than their CJS builds. */
  mainFields: ['module', 'main'],
  banner: ESM_REQUIRE_BANNER,
  /** The AWS SDK is bundled, not taken from the runtime: what is tested is what runs. */
  externalModules: [] as string[],
  /** Lambda's credentials are in its environment: the default chain's other providers never run there. */
  alias: {
    '@aws-sdk/credential-provider-node': './functions/lambda/envCredentials.ts',
    // X-Ray's SDK v2 patcher alone requires semver, and the functions trace SDK v3 clients only.
    semver: './functions/lambda/noSemver.ts',
    // No function calls an AWS operation that streams events (S3 Select and the like).
    '@smithy/core/event-streams': './functions/lambda/noEventStreams.ts',
    // DynamoDB's endpoint discovery (off) keeps its cache in a Map, not an LRU library.
    '@aws-sdk/endpoint-cache': './functions/lambda/endpointCache.ts',
    // Written by infra/verifierFiles.ts before bundling.
    'arbiter-verifier-source': './dist/verifier-source.mjs',
    // Written by infra/webFiles.ts before bundling.
    'arbiter-web-assets': './dist/web-assets.mjs',
    // Written by infra/apiDocsFiles.ts before bundling.
    'arbiter-api-docs-assets': './dist/api-docs-assets.mjs',
  } as Record<string, string>,
  outFile: 'index.mjs',
  /** Chunks that an entry imports, statically (its cold start) or with import() (on demand: a ruleset). */
  chunkNames: 'chunks/[name]-[hash]',
  /**
   * What a function's cold start may load: its entry file and the chunks it imports statically
   * (infra/coldStart.ts). The chunks it imports on demand (each ruleset, and what only one
   * route needs) are listed beside it and do not count: a game loads its own ruleset.
   * The AWS SDK clients and zod are about 400 KB of it; the X-Ray SDK, which only a traced
   * (sampled) request needs, is on demand too (functions/lambda/tracing.ts), and so are the
   * operations' documentation (functions/http/operationDocs.ts, read by GET /openapi.json only),
   * the export store's S3 code and drand's BLS code. Every function, no exception.
   */
  maxBytes: 500 * 1024,
};

/**
 * The AWS SDK clients import their whole package.json for one field, the version in their
 * user agent (2 KB each): bundled as { name, version }.
 */
const sdkPackageVersions: Plugin = {
  name: 'sdk-package-versions',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]@aws-sdk[\\/][^\\/]+[\\/]package\.json$/ }, ({ path }) => {
      const { name, version } = JSON.parse(readFileSync(path, 'utf8')) as { name: string; version: string };
      return { contents: JSON.stringify({ name, version }), loader: 'json' };
    });
  },
};

/**
 * esbuild's options for one Lambda entry, as `npm run build`, the bundle tests and the stack
 * (functionBundling) build it: `outfile` is the entry file, its chunks go beside it (code
 * splitting: what a function needs only for some games or routes is loaded with import()).
 */
export function esbuildOptions(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: { [basename(outfile, extname(outfile))]: entry },
    outdir: dirname(outfile),
    outExtension: { '.js': extname(outfile) },
    splitting: true,
    chunkNames: BUNDLE.chunkNames,
    metafile: true,
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
    plugins: [sdkPackageVersions],
    logLevel: 'warning',
  };
}

/**
 * A NodejsFunction's bundling: `beforeBundling` writes what the bundle embeds first.
 * NodejsFunction writes one file (esbuild's `--outfile`), which cannot be split: its own esbuild
 * pass here only transforms the entry (every import external, a few milliseconds), and then
 * infra/splitBundle.ts builds `entry` into the asset with esbuildOptions (the entry file and its
 * chunks), so that what is deployed is what `npm run build` and the tests build.
 */
export function functionBundling(entry: string, beforeBundling: readonly string[] = []): BundlingOptions {
  return {
    target: BUNDLE.target,
    format: 'esm' as unknown as OutputFormat,
    externalModules: ['*'],
    // The verifier's text and the web app's files are built first, for the aliases above to find them.
    commandHooks: {
      beforeBundling: (inputDir) => beforeBundling.map((script) => `cd "${inputDir}" && node --import tsx ${script}`),
      beforeInstall: () => [],
      afterBundling: (inputDir, outputDir) => [`cd "${inputDir}" && node --import tsx infra/splitBundle.ts "${entry}" "${outputDir}"`],
    },
  };
}
