import { verifierHandlers } from '../http/verifierHandlers';
import { powertoolsObserver } from './powertools';
import { routeGroup } from './routeGroup';

// GET /verifier.mjs: no table, no key; the verifier's text is a chunk of the bundle, loaded by the first request
// (data to serve, not code to start with: infra/bundling.ts counts it apart from the cold start).
export const handler = routeGroup(verifierHandlers(async () => (await import('arbiter-verifier-source')).default, powertoolsObserver));
