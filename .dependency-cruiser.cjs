// The layers of Arbiter, checked on every `npm test` (npm run lint:layers).
//   domain/            pure rules: no I/O, no platform, no adapters
//   verifier/, web/    built on the domain alone, so that anyone can check a game offline
//   functions/         application, http, push, and the adapters (store, local, lambda)
// Type-only imports count: a circle of types is still a circle to untangle.

const DOMAIN_PACKAGES = '(^|/)node_modules/(zod|@noble/curves|@noble/hashes)/';
const OUTSIDE_DOMAIN = '^(functions|infra|web|verifier|bin|bench|test)/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import circles, type-only ones included.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-stays-inside',
      severity: 'error',
      comment: 'domain/ is the core: it imports nothing of the service, the infrastructure, the verifier, the web app or the tests.',
      from: { path: '^domain/' },
      to: { path: OUTSIDE_DOMAIN },
    },
    {
      name: 'domain-no-node-builtins',
      severity: 'error',
      comment:
        'domain/ is pure: no node: modules. Named exception: domain/crypto/primitives.ts, the crypto port as Node gives it, ' +
        'which browser bundles swap for browserPrimitives.ts (verifier/browserBundle.ts).',
      from: { path: '^domain/', pathNot: '^domain/crypto/primitives\\.ts$' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'domain-few-packages',
      severity: 'error',
      comment: 'domain/ uses zod and the noble crypto packages only: no AWS SDK, middy, powertools, or any other platform package.',
      from: { path: '^domain/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'], pathNot: DOMAIN_PACKAGES },
    },
    {
      name: 'fairness-below-dice',
      severity: 'error',
      comment:
        'domain/fairness/ (fairness-v1: the dice stream, the hash chain) is what domain/dice.ts draws on; it never imports the dice ' +
        'sources back (a circle of folders that no-circular, which looks at files, would not see).',
      from: { path: '^domain/fairness/' },
      to: { path: '^domain/dice\\.ts$' },
    },
    {
      name: 'web-app-on-domain-only',
      severity: 'error',
      comment: 'The browser app (web/app/) imports the domain and its own folder, and no node: module.',
      from: { path: '^web/app/' },
      to: { pathNot: '^(web/app|domain)/' },
    },
    {
      name: 'web-build-on-domain-and-verifier-bundle',
      severity: 'error',
      comment:
        'The web build scripts (web/*.ts) import the domain and their own folder. Named exception: verifier/browserBundle.ts, ' +
        'the esbuild plugins that swap in browser crypto, shared by both browser bundles.',
      from: { path: '^web/[^/]+$' },
      to: { path: '^(functions|infra|verifier|bin|bench|test)/', pathNot: '^verifier/browserBundle\\.ts$' },
    },
    {
      name: 'verifier-on-domain-only',
      severity: 'error',
      comment: 'The verifier checks a game offline with the domain alone: nothing of the service, the infrastructure, the web app or the tests.',
      from: { path: '^verifier/' },
      to: { path: '^(functions|infra|web|bin|bench|test)/' },
    },
    {
      name: 'verifier-few-packages',
      severity: 'error',
      comment: 'The verifier runs offline on the domain: the only package it takes is esbuild, to build its standalone and browser bundles.',
      from: { path: '^verifier/' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'], pathNot: '(^|/)node_modules/esbuild/' },
    },
    {
      name: 'store-below-the-service',
      severity: 'error',
      comment:
        'functions/store/ holds the store ports and their DynamoDB/S3/memory adapters: it imports no other part of the service, ' +
        'but for the types of the application ports it implements (SnapshotStore, GameLeases, CreationCounter, KmsKeyRing).',
      from: { path: '^functions/store/' },
      to: { path: '^(functions/(http|push|lambda|local|cli)|infra|web|verifier|bin|bench|test)/' },
    },
    {
      name: 'store-implements-application-ports-by-type',
      severity: 'error',
      comment: 'functions/store/ takes only types from functions/application/: the ports it implements, never the service code.',
      from: { path: '^functions/store/' },
      to: { path: '^functions/application/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'core-uses-store-ports',
      severity: 'error',
      comment:
        'The application, HTTP and push layers reach the store through its ports (eventStore.ts, blobStore.ts, itemSize.ts, and the ' +
        'shared keySchema.ts and transientErrors.ts), never an adapter: the adapters are chosen by functions/local, functions/lambda and infra. ' +
        'Named exception: functions/application/rotateKmsKey.ts takes the type of the DynamoDB KeyRingStore (no port for it yet).',
      from: { path: '^functions/(application|http|push)/', pathNot: '^functions/application/rotateKmsKey\\.ts$' },
      to: { path: '^functions/store/', pathNot: '^functions/store/(eventStore|blobStore|itemSize|keySchema|transientErrors)\\.ts$' },
    },
    {
      name: 'core-knows-no-adapters',
      severity: 'error',
      comment: 'The application and HTTP layers import neither the local nor the Lambda adapter (nor the CLI, infra or tests).',
      from: { path: '^functions/(application|http)/' },
      to: { path: '^(functions/(lambda|local|cli)|infra|bin|bench|test)/' },
    },
    {
      name: 'application-below-http-and-push',
      severity: 'error',
      comment: 'The application layer does not import the HTTP or push layers that call it.',
      from: { path: '^functions/application/' },
      to: { path: '^functions/(http|push)/' },
    },
    {
      name: 'local-apart-from-lambda',
      severity: 'error',
      comment: 'The local server and the Lambda functions are two adapters of the same core: neither imports the other.',
      from: { path: '^functions/local/' },
      to: { path: '^functions/lambda/' },
    },
    {
      name: 'lambda-apart-from-local',
      severity: 'error',
      comment: 'The Lambda functions and the local server are two adapters of the same core: neither imports the other.',
      from: { path: '^functions/lambda/' },
      to: { path: '^functions/local/' },
    },
    {
      name: 'push-knows-no-adapters',
      severity: 'error',
      comment: 'functions/push/ serves both the local server and Lambda: it imports neither.',
      from: { path: '^functions/push/' },
      to: { path: '^(functions/(lambda|local|cli)|infra|bin|bench|test)/' },
    },
    {
      name: 'nothing-imports-tests',
      severity: 'error',
      comment: 'Shipped code never imports the tests or the benchmarks.',
      from: { pathNot: '^(test|bench)/' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'resolvable',
      severity: 'error',
      comment: 'Every import resolves. Named exception: the arbiter-* modules that the Lambda bundles build in (infra/bundling.ts).',
      from: {},
      to: { couldNotResolve: true, pathNot: '^arbiter-(api-docs-assets|verifier-source|web-assets)$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(cdk\\.out|\\.arbiter-data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.mts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
    cache: { folder: 'node_modules/.cache/dependency-cruiser', strategy: 'content' },
  },
};
