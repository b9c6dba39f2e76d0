import { consoleObserver, type Observer } from './observe';
import { notFound } from '../application/errors';
import { text } from './respond';
import { pathOf } from './parameters';
import { route } from './route';

export interface WebAsset {
  body: string;
  contentType: string;
}
/** The web app's files by the path they are served at: `/` and `/assets/<file>` (web/build.ts). */
export type WebAssets = ReadonlyMap<string, WebAsset>;

/**
 * Scripts, styles and requests from this origin only; no inline script, no framing. Kept with web/indexHtml.ts.
 * Workers only from a file of this origin (the verify page's, /assets/verifyWorker.js): never a blob: or data: one.
 */
export const WEB_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * A worker's own policy is the one its script is served with: the verify page's worker
 * reads the file it is handed and connects to nothing; it loads only scripts of this origin
 * (the chunk it shares with the page, and the BLS code for a beacon game, web/build.ts).
 * Scripts and styles the page loads ignore it.
 */
export const WEB_ASSET_CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'";

/**
 * Where the page's push socket is when it is not /push on this origin (on AWS, the WebSocket
 * API's wss:// URL): the page is told in a meta element, and the policy lets it connect there.
 */
export function pagePushSettings(pushUrl: string | undefined): { meta: string; connectSrc: string } | undefined {
  if (!pushUrl) return undefined;
  let url: URL;
  try {
    url = new URL(pushUrl);
  } catch {
    throw new Error(`PUSH_URL is not a URL: ${JSON.stringify(pushUrl)}`);
  }
  if (url.protocol !== 'wss:' || url.username || url.password || url.search || url.hash) throw new Error(`PUSH_URL must be a plain wss:// URL: ${JSON.stringify(pushUrl)}`);
  const href = url.href.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
  return { meta: `<meta name="arbiter-push" content="${href}">`, connectSrc: `wss://${url.host}` };
}

/** Where stored exports' links point (on AWS, the bucket's https origin): the verify page follows them. */
function exportConnectSrc(exportOrigin: string | undefined): string | undefined {
  if (!exportOrigin) return undefined;
  const url = new URL(exportOrigin);
  if (url.protocol !== 'https:' || url.href !== `${url.origin}/`) throw new Error(`EXPORT_ORIGIN must be a plain https:// origin: ${JSON.stringify(exportOrigin)}`);
  return url.origin;
}

/** GET / and GET /assets/{file}: the web app (issue 14), the same origin as the API. */
export function webHandlers(assets: () => Promise<WebAssets>, observer: Observer = consoleObserver, pushUrl?: string, exportOrigin?: string) {
  const push = pagePushSettings(pushUrl);
  const connectTo = [push?.connectSrc, exportConnectSrc(exportOrigin)].filter(Boolean);
  const policy = connectTo.length ? WEB_CONTENT_SECURITY_POLICY.replace("connect-src 'self'", `connect-src 'self' ${connectTo.join(' ')}`) : WEB_CONTENT_SECURITY_POLICY;
  const serve = async (path: string) => {
    const asset = (await assets()).get(path);
    if (!asset) throw notFound(`No file ${path}.`);
    const page = asset.contentType.startsWith('text/html');
    const body = page && push ? asset.body.replace('<head>', `<head>\n${push.meta}`) : asset.body;
    return text(200, body, {
      'content-type': asset.contentType,
      // Unhashed names: the browser asks again each time and gets the new build after a deploy.
      'cache-control': 'no-cache',
      ...(page ? { 'content-security-policy': policy, 'referrer-policy': 'no-referrer', 'x-frame-options': 'DENY' } : { 'content-security-policy': WEB_ASSET_CONTENT_SECURITY_POLICY }),
    });
  };
  return {
    webPage: route(() => serve('/'), observer),
    webAsset: route((event) => serve(`/assets/${pathOf(event, 'file')}`), observer),
  };
}
