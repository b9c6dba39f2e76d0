import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { gunzipSync, gzipSync } from 'node:zlib';
import { consoleObserver, type Observer } from './observe';
import { notFound } from '../application/errors';
import { acceptsGzip, text, type HttpResult } from './respond';
import type { ParsedEvent } from './middleware';
import { pathOf } from './parameters';
import { route } from './route';

/**
 * GET /docs: a reference page of GET /openapi.json for people, rendered in the browser by
 * RapiDoc (the `rapidoc` package of the lockfile, MIT), served from this origin: no CDN.
 */

/** A file of the page, as text, or gzipped (base64) where it must stay small at rest (a Lambda bundle). */
export type ApiDocsAsset = { contentType: string } & ({ body: string } | { gzipBase64: string });
/** By the path they are served at: `/docs/assets/<file>`. */
export type ApiDocsAssets = ReadonlyMap<string, ApiDocsAsset>;

const PACKAGE_FILES = [
  { file: 'rapidoc-min.js', contentType: 'text/javascript; charset=utf-8' },
  // The bundle's own licence notices, which its first line points to.
  { file: 'rapidoc-min.js.LICENSE.txt', contentType: 'text/plain; charset=utf-8' },
] as const;

export const API_DOCS_SCRIPT = `/docs/assets/${PACKAGE_FILES[0].file}`;

/**
 * This origin only, and no framing. RapiDoc styles its elements inline, so styles may be
 * inline; its web fonts come from another origin and are refused (system fonts are used).
 */
export const API_DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function apiDocsPage(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Arbiter API reference</title>
<link rel="icon" href="data:,">
<script type="module" src="${API_DOCS_SCRIPT}"></script>
</head>
<body>
<rapi-doc spec-url="/openapi.json" load-fonts="false" render-style="read" show-header="false" theme="light" allow-server-selection="false" allow-authentication="true" allow-try="true" schema-expand-level="2" default-schema-tab="schema" regular-font="system-ui, sans-serif" mono-font="ui-monospace, monospace"></rapi-doc>
<noscript><p>This page needs JavaScript. The description it shows is <a href="/openapi.json">/openapi.json</a>.</p></noscript>
</body>
</html>
`;
}

/** The page's files, read from the installed package: the local server's source. */
export async function apiDocsAssetsFromPackage(): Promise<ApiDocsAssets> {
  const require = createRequire(import.meta.url);
  const assets = new Map<string, ApiDocsAsset>();
  for (const { file, contentType } of PACKAGE_FILES) {
    assets.set(`/docs/assets/${file}`, { contentType, body: await readFile(require.resolve(`rapidoc/dist/${file}`), 'utf8') });
  }
  return assets;
}

let fromPackage: Promise<ApiDocsAssets> | undefined;
/** apiDocsAssetsFromPackage, read once per process; a failed read is tried again by the next request. */
export function cachedApiDocsAssetsFromPackage(): Promise<ApiDocsAssets> {
  fromPackage ??= apiDocsAssetsFromPackage().catch((error) => {
    fromPackage = undefined;
    throw error;
  });
  return fromPackage;
}

/** The same files gzipped, to embed in a bundle that must stay small (RapiDoc is 863 KB, 217 KB gzipped). */
export function gzippedApiDocsAssets(assets: ApiDocsAssets): ApiDocsAssets {
  return new Map(
    [...assets].map(([path, asset]) => [
      path,
      'body' in asset ? { contentType: asset.contentType, gzipBase64: gzipSync(asset.body, { level: 9 }).toString('base64') } : asset,
    ]),
  );
}

/** The page and its script, in the style of webHandlers: `apiDocsPage` for GET /docs, `apiDocsAsset` for GET /docs/assets/{file}. */
export function apiDocsHandlers(observer: Observer = consoleObserver, assets: () => Promise<ApiDocsAssets> = cachedApiDocsAssetsFromPackage) {
  const serve = async (event: ParsedEvent): Promise<HttpResult> => {
    const path = `/docs/assets/${pathOf(event, 'file')}`;
    const asset = (await assets()).get(path);
    if (!asset) throw notFound(`No file ${path}.`);
    // The files change only with the package's version, which changes the deployment: an hour is safe.
    const headers = { 'content-type': asset.contentType, 'cache-control': 'public, max-age=3600', vary: 'accept-encoding' };
    if ('body' in asset) return text(200, asset.body, headers);
    if (acceptsGzip(event)) {
      return { statusCode: 200, headers: { ...headers, 'x-content-type-options': 'nosniff', 'content-encoding': 'gzip' }, body: asset.gzipBase64, isBase64Encoded: true };
    }
    return text(200, gunzipSync(Buffer.from(asset.gzipBase64, 'base64')).toString('utf8'), headers);
  };
  return {
    apiDocsPage: route(
      () =>
        text(200, apiDocsPage(), {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-cache',
          'content-security-policy': API_DOCS_CONTENT_SECURITY_POLICY,
          'referrer-policy': 'no-referrer',
          'x-frame-options': 'DENY',
        }),
      observer,
    ),
    apiDocsAsset: route(serve, observer),
  };
}
