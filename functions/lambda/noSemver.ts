/**
 * Bundled in place of `semver` (the alias in infra/bundling.ts). aws-xray-sdk-core requires it
 * only to check the version of an AWS SDK v2 in `captureAWS`, which the functions never call
 * (they trace SDK v3 clients, tracing.ts): 29 KB of every bundle that calls AWS for nothing.
 */
export function gte(): never {
  throw new Error('semver is not bundled: the AWS SDK v2 tracing (captureAWS) is not supported in these functions');
}
