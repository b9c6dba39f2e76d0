import { buildWebAssets } from '../../web/build';
import type { WebAssets } from '../http/webHandlers';

let assets: Promise<WebAssets> | undefined;

/** GET / and /assets/* on the local server: the web app, built on first request and kept. */
export function localWebAssets(): Promise<WebAssets> {
  assets ??= buildWebAssets().catch((error) => {
    assets = undefined;
    throw error;
  });
  return assets;
}
