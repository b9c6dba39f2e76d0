import { consoleObserver, type Observer } from './observe';
import { errorBody, json, text } from './respond';
import { route } from './route';

export interface WebAsset {
  body: string;
  contentType: string;
}
/** The web app's files by the path they are served at: `/` and `/assets/<file>` (web/build.ts). */
export type WebAssets = ReadonlyMap<string, WebAsset>;

/** Scripts, styles and requests from this origin only; no inline script, no framing. Kept with web/indexHtml.ts. */
export const WEB_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** GET / and GET /assets/{file}: the web app (issue 14), the same origin as the API. */
export function webHandlers(assets: () => Promise<WebAssets>, observer: Observer = consoleObserver) {
  const serve = async (path: string) => {
    const asset = (await assets()).get(path);
    if (!asset) return json(404, errorBody('not_found', `No file ${path}.`));
    const page = asset.contentType.startsWith('text/html');
    return text(200, asset.body, {
      'content-type': asset.contentType,
      // Unhashed names: the browser asks again each time and gets the new build after a deploy.
      'cache-control': 'no-cache',
      ...(page ? { 'content-security-policy': WEB_CONTENT_SECURITY_POLICY, 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' } : {}),
    });
  };
  return {
    webPage: route(() => serve('/'), observer),
    webAsset: route((event) => serve(`/assets/${event.pathParameters?.file ?? ''}`), observer),
  };
}
