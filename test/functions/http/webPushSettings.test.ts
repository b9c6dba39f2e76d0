import { describe, expect, it } from 'vitest';
import { pagePushSettings, WEB_CONTENT_SECURITY_POLICY, webHandlers } from '../../../functions/http/webHandlers';

const page = new Map([['/', { body: '<!doctype html><html><head><title>Arbiter</title></head><body></body></html>', contentType: 'text/html; charset=utf-8' }]]);
const event = { rawPath: '/', headers: {}, requestContext: { http: { method: 'GET', path: '/' } } } as never;

describe("the web app's page on AWS, where the push socket has its own address", () => {
  it('names the socket in a meta element and lets the page connect there, and only there besides itself', async () => {
    const url = 'wss://abc123.execute-api.eu-west-1.amazonaws.com/push';
    const reply = await webHandlers(async () => page, undefined, url).webPage(event, {} as never);
    expect(reply.body).toContain(`<head>\n<meta name="arbiter-push" content="${url}">`);
    expect(reply.headers['content-security-policy']).toBe(WEB_CONTENT_SECURITY_POLICY.replace("connect-src 'self'", "connect-src 'self' wss://abc123.execute-api.eu-west-1.amazonaws.com"));
  });

  it('serves the page unchanged without one (the local server: /push on the same origin)', async () => {
    const reply = await webHandlers(async () => page).webPage(event, {} as never);
    expect(reply.body).toBe(page.get('/')!.body);
    expect(reply.headers['content-security-policy']).toBe(WEB_CONTENT_SECURITY_POLICY);
  });

  it('refuses an address that is not a plain wss:// URL, so nothing odd reaches the page or its policy', () => {
    for (const bad of ['ws://x.test/push', 'https://x.test/', 'wss://u:p@x.test/', 'wss://x.test/?a=1', 'not a url']) {
      expect(() => pagePushSettings(bad), bad).toThrow();
    }
    // Quotes and angle brackets in a path are escaped by the URL itself: the meta element stays one attribute.
    expect(pagePushSettings('wss://x.test/"><script>')?.meta).toBe('<meta name="arbiter-push" content="wss://x.test/%22%3E%3Cscript%3E">');
    expect(pagePushSettings('wss://x.test/a&b')?.meta).toBe('<meta name="arbiter-push" content="wss://x.test/a&#38;b">');
  });

  it('lets the verify page follow a stored export to the bucket, and nowhere else', async () => {
    const reply = await webHandlers(async () => page, undefined, undefined, 'https://arbiter-exports.s3.eu-west-1.amazonaws.com').webPage(event, {} as never);
    expect(reply.headers['content-security-policy']).toBe(WEB_CONTENT_SECURITY_POLICY.replace("connect-src 'self'", "connect-src 'self' https://arbiter-exports.s3.eu-west-1.amazonaws.com"));
    expect(() => webHandlers(async () => page, undefined, undefined, 'https://x.test/path')).toThrow(/plain https/);
    expect(() => webHandlers(async () => page, undefined, undefined, 'http://x.test')).toThrow(/plain https/);
  });
});
