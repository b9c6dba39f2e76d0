import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * Stands in for @aws-sdk/credential-provider-node in the Lambda bundles (an esbuild
 * alias, infra/bundling.ts): Lambda always hands a function its role's credentials in
 * the environment, so the profile, SSO and STS providers of the default chain (and
 * their ~90 KB of clients) never run there.
 */
export const defaultProvider = (_init?: unknown) => fromEnv();
