import source from 'arbiter-verifier-source';
import { verifierHandlers } from '../http/verifierHandlers';
import { powertoolsObserver } from './powertools';
import { routeGroup } from './routeGroup';

// GET /verifier.mjs: no table, no key; the verifier's text is part of the bundle.
export const handler = routeGroup(verifierHandlers(async () => source, powertoolsObserver));
