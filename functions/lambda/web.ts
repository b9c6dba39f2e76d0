import { webHandlers, type WebAssets } from '../http/webHandlers';
import { rawSetting, SettingsError } from '../config/settingNames';
import { logger, powertoolsObserver } from './powertools';
import { routeGroup } from './routeGroup';

// The app's files are a chunk of the bundle, loaded by the first request (data to serve, not code to start with).
let assets: Promise<WebAssets> | undefined;
const loadAssets = () => (assets ??= import('arbiter-web-assets').then(({ default: files }) => new Map(Object.entries(files)) as WebAssets));

// GET / and /assets/{file}: no table, no key; the app's files are part of the bundle.
// ARBITER_PUSH_URL: the WebSocket API the page follows timelines on (infra/push.ts).
// ARBITER_EXPORT_ORIGIN: the bucket stored exports are linked in (infra/exportStorage.ts), which the verify page fetches from.
// Read by name alone, unchecked as the page only names them: this bundle stays free of zod and the service.
const problems: string[] = [];
const warnings: string[] = [];
const pushUrl = rawSetting(process.env, 'pushUrl', problems, warnings);
const exportOrigin = rawSetting(process.env, 'exportOrigin', problems, warnings);
if (problems.length) throw new SettingsError(problems);
for (const warning of warnings) logger.warn(warning);
export const handler = routeGroup(webHandlers(loadAssets, powertoolsObserver, pushUrl, exportOrigin));
