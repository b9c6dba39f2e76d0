import files from 'arbiter-web-assets';
import { webHandlers, type WebAssets } from '../http/webHandlers';
import { powertoolsObserver } from './powertools';
import { routeGroup } from './routeGroup';
import { lambdaSettings } from './lambdaSettings';

const assets: WebAssets = new Map(Object.entries(files));

// GET / and /assets/{file}: no table, no key; the app's files are part of the bundle.
// ARBITER_PUSH_URL: the WebSocket API the page follows timelines on (infra/push.ts).
// ARBITER_EXPORT_ORIGIN: the bucket stored exports are linked in (infra/exportStorage.ts), which the verify page fetches from.
export const handler = routeGroup(webHandlers(async () => assets, powertoolsObserver, lambdaSettings().pushUrl, lambdaSettings().exportOrigin));
