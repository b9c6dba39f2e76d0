import files from 'arbiter-api-docs-assets';
import { apiDocsHandlers, type ApiDocsAssets } from '../http/apiDocsHandlers';
import { powertoolsObserver } from './powertools';
import { routeGroup } from './routeGroup';

const assets: ApiDocsAssets = new Map(Object.entries(files));

// GET /docs and /docs/assets/{file}: no table, no key; the page's files are part of the bundle.
export const handler = routeGroup(apiDocsHandlers(powertoolsObserver, async () => assets));
