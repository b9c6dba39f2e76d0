import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { API_DOCS_CONTENT_SECURITY_POLICY, API_DOCS_SCRIPT, apiDocsAssetsFromPackage, apiDocsHandlers, gzippedApiDocsAssets } from '../../functions/http/apiDocsHandlers';
import type { HttpEvent } from '../../functions/http/respond';
import { openApiDocument } from '../../functions/http/openapi';

const quiet = { unexpected: (error: Error) => console.error(error) };
const event = (path: string, headers: Record<string, string> = {}, file?: string) =>
  ({ headers, rawPath: path, pathParameters: file === undefined ? undefined : { file }, requestContext: { http: { method: 'GET', path } } }) as unknown as HttpEvent;
const packageFile = (name: string) => readFileSync(createRequire(import.meta.url).resolve(`rapidoc/dist/${name}`), 'utf8');

describe('GET /docs: the API reference page', () => {
  const handlers = apiDocsHandlers(quiet);

  it('is a page that renders /openapi.json with the packaged script, from this origin only', async () => {
    const reply = await handlers.apiDocsPage(event('/docs'));
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(reply.headers['content-security-policy']).toBe(API_DOCS_CONTENT_SECURITY_POLICY);
    expect(API_DOCS_CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(API_DOCS_CONTENT_SECURITY_POLICY).toContain("connect-src 'self'");
    const page = String(reply.body);
    expect(page).toContain(`<script type="module" src="${API_DOCS_SCRIPT}"></script>`);
    expect(page).toMatch(/<rapi-doc spec-url="\/openapi.json" load-fonts="false"/);
    // Nothing from another origin: every link is a path of this server, or data.
    expect(page).not.toMatch(/\/\/[a-z]/i);
    for (const [, url] of page.matchAll(/(?:src|href)="([^"]*)"/g)) expect(url).toMatch(/^(\/|data:)/);
  });

  it('serves the script of the rapidoc package as installed, and its licence notices', async () => {
    const reply = await handlers.apiDocsAsset(event(API_DOCS_SCRIPT, {}, 'rapidoc-min.js'));
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(reply.body).toBe(packageFile('rapidoc-min.js'));
    const licence = await handlers.apiDocsAsset(event('/docs/assets/rapidoc-min.js.LICENSE.txt', {}, 'rapidoc-min.js.LICENSE.txt'));
    expect(licence.statusCode).toBe(200);
    expect(licence.body).toContain('@license');
  });

  it('is small: the page and script come to at most 900 KB, 230 KB gzipped', async () => {
    const page = String((await handlers.apiDocsPage(event('/docs'))).body);
    const script = String((await handlers.apiDocsAsset(event(API_DOCS_SCRIPT, {}, 'rapidoc-min.js'))).body);
    expect(page.length + script.length).toBeLessThanOrEqual(900 * 1024);
    expect(gzipSync(page, { level: 9 }).length + gzipSync(script, { level: 9 }).length).toBeLessThanOrEqual(230 * 1024);
  });

  it('answers 404 for a file it does not have', async () => {
    const reply = await handlers.apiDocsAsset(event('/docs/assets/secret.js', {}, 'secret.js'));
    expect(reply.statusCode).toBe(404);
    expect(JSON.parse(String(reply.body)).error.code).toBe('not_found');
  });

  it('from gzipped assets (a bundle), answers gzip to a client that accepts it and text to one that does not', async () => {
    const text = packageFile('rapidoc-min.js');
    const gzipped = gzippedApiDocsAssets(await apiDocsAssetsFromPackage());
    const small = apiDocsHandlers(quiet, async () => gzipped);

    const zipped = await small.apiDocsAsset(event(API_DOCS_SCRIPT, { 'accept-encoding': 'gzip, deflate, br' }, 'rapidoc-min.js'));
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.isBase64Encoded).toBe(true);
    expect(gunzipSync(Buffer.from(String(zipped.body), 'base64')).toString('utf8')).toBe(text);

    for (const acceptEncoding of [undefined, 'identity', 'gzip;q=0, br']) {
      const plain = await small.apiDocsAsset(event(API_DOCS_SCRIPT, acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}, 'rapidoc-min.js'));
      expect(plain.headers['content-encoding'], acceptEncoding).toBeUndefined();
      expect(plain.body === text, acceptEncoding).toBe(true);
    }
  });

  it('is described in the OpenAPI document', () => {
    const paths = openApiDocument().paths as Record<string, Record<string, { operationId: string }>>;
    expect(paths['/docs'].get.operationId).toBe('getApiReference');
    expect(paths['/docs/assets/{file}'].get.operationId).toBe('getApiReferenceAsset');
  });
});
