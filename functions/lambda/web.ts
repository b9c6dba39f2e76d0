import files from 'arbiter-web-assets';
import { webHandlers, type WebAssets } from '../http/webHandlers';
import { rawSetting, SettingsError } from '../config/settingNames';
import { logger, powertoolsObserver } from './powertools';
import { routeGroup } from './routeGroup';

const assets: WebAssets = new Map(Object.entries(files));

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
export const handler = routeGroup(webHandlers(async () => assets, powertoolsObserver, pushUrl, exportOrigin));
