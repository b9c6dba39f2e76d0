import type { BuildOptions } from 'esbuild';
import { OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
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
    // Written by infra/verifierFiles.ts before bundling.
    'arbiter-verifier-source': './dist/verifier-source.mjs',
    // Written by infra/webFiles.ts before bundling.
    'arbiter-web-assets': './dist/web-assets.mjs',
    // Written by infra/apiDocsFiles.ts before bundling.
    'arbiter-api-docs-assets': './dist/api-docs-assets.mjs',
  } as Record<string, string>,
  outFile: 'index.mjs',
  /**
   * What a bundle may weigh: the AWS SDK clients and zod are about 400 KB; the Powertools
   * Tracer (X-Ray subsegments for every AWS call, functions/lambda/tracing.ts) adds about
   * 120 KB to the functions that call AWS, and about 15 ms to their load; the rulesets, the
   * table format included, are about 190 KB and grow with each game system (Wars and Battles
   * alone is 72 KB since its rules fidelity fixes). What counts for a cold start is the load
   * time, which npm run bench measures for each bundle against its 150 ms target.
   * This is a guard against growth by accident, not the target: the target is 500 KB (issue
   * aws-scale), reached by loading rulesets on demand. Rules fidelity II and the errors in
   * words added 36 KB to the commands and reads bundles, and the guard rose from 800 KB with it.
   * Issue 33 (subscriptions and their sealed targets, turn clocks, voids, rulings) added about
   * 25 KB to commands and revealBeacons, which were already near 850 KB: the guard rose to
   * 900 KB, and the target stays issue aws-scale's.
   */
  maxBytes: 900 * 1024,
};

/** esbuild's options for one Lambda entry, as `npm run build` and the bundle tests build it. */
export function esbuildOptions(entry: string, outfile: string): BuildOptions {
  return {
    entryPoints: [entry],
    outfile,
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
  };
}

/** The same settings for a NodejsFunction of the stack; `beforeBundling` writes what the bundle embeds first. */
export function functionBundling(beforeBundling: readonly string[] = []): BundlingOptions {
  return {
    minify: BUNDLE.minify,
    sourceMap: BUNDLE.sourceMap,
    target: BUNDLE.target,
    format: OutputFormat.ESM,
    mainFields: BUNDLE.mainFields,
    banner: BUNDLE.banner,
    externalModules: BUNDLE.externalModules,
    bundleAwsSDK: true,
    // One argument per alias (`--alias:from=to`): a repeated `--alias` key would keep only the last.
    esbuildArgs: Object.fromEntries(Object.entries(BUNDLE.alias).map(([from, to]) => [`--alias:${from}`, to])),
    // The verifier's text and the web app's files are built first, for the aliases above to find them.
    commandHooks: {
      beforeBundling: (inputDir) => beforeBundling.map((script) => `cd "${inputDir}" && node --import tsx ${script}`),
      beforeInstall: () => [],
      afterBundling: () => [],
    },
  };
}
