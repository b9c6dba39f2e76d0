// The pages an e-mail's confirm and unsubscribe links open (issue 33), in Chromium: served
// here by a small stand-in of the routes (the real ones are functions/notify's), to check what
// only a browser shows: the policy lets the page's style and its form through, the button is
// reached and pressed by keyboard, and pressing it POSTs to the link's own address.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { HttpResult } from '../../functions/http/respond';
import { confirmPage, donePage, unsubscribePage } from '../../functions/notify/email/pages';
import { focusedName, screenshot, startSession, type Session } from './browserSession';

const GAME = { gameTitle: 'Kursk <south> & Prokhorovka', gameId: 'g-abc123' };
const CODE = 'code-7f3a';

interface Posted {
  path: string;
  code: string | null;
  contentType: string | undefined;
  body: string;
}

let session: Session;
let server: Server;
let origin: string;
const posted: Posted[] = [];

beforeAll(async () => {
  session = await startSession();
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const which = /^\/subscriptions\/sub_1\/(confirm|unsubscribe)$/.exec(url.pathname)?.[1];
      let result: HttpResult;
      if (!which || url.searchParams.get('code') !== CODE) result = donePage('unknown-link');
      else if (request.method === 'POST') {
        posted.push({ path: url.pathname, code: url.searchParams.get('code'), contentType: request.headers['content-type'], body: Buffer.concat(chunks).toString() });
        result = donePage(which === 'confirm' ? 'confirmed' : 'unsubscribed', GAME);
      } else result = which === 'confirm' ? confirmPage(GAME) : unsubscribePage(GAME);
      response.writeHead(result.statusCode, result.headers).end(result.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await session?.close();
  await new Promise((resolve) => server?.close(resolve));
});

async function open(path: string): Promise<{ page: Page; problems: string[] }> {
  const page = await session.context.newPage();
  await page.setViewportSize({ width: 800, height: 360 });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${origin}${path}`);
  return { page, problems };
}

const focusOutline = (page: Page) => page.evaluate<string>('getComputedStyle(document.activeElement).outlineStyle');

describe('e-mail link pages', () => {
  it('confirm: opening the link changes nothing; the button, reached by Tab and pressed with Enter, posts to the link', async () => {
    const { page, problems } = await open(`/subscriptions/sub_1/confirm?code=${CODE}`);
    expect(await page.getByRole('heading', { name: 'Mails for every move?' }).isVisible()).toBe(true);
    expect(await page.locator('.game').textContent()).toBe('Kursk <south> & Prokhorovka');
    // The page's own style applied (the policy let it through): the button is blue.
    expect(await page.evaluate<string>("getComputedStyle(document.querySelector('button')).backgroundColor")).toBe('rgb(29, 78, 216)');
    expect(posted).toEqual([]);
    await screenshot(page, 'email-confirm');

    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Confirm: send me these mails');
    expect(await focusOutline(page)).toBe('solid');
    await Promise.all([page.waitForURL(`${origin}/subscriptions/sub_1/confirm?code=${CODE}`), page.keyboard.press('Enter')]);
    await page.getByRole('heading', { name: 'Confirmed' }).waitFor();
    expect(posted).toEqual([{ path: '/subscriptions/sub_1/confirm', code: CODE, contentType: 'application/x-www-form-urlencoded', body: '' }]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('unsubscribe: the button posts the one-click body a mail client would, and the page says it is done', async () => {
    posted.length = 0;
    const { page, problems } = await open(`/subscriptions/sub_1/unsubscribe?code=${CODE}`);
    await screenshot(page, 'email-unsubscribe');
    await page.keyboard.press('Tab');
    expect(await focusedName(page)).toBe('Unsubscribe: send me no more mails');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Unsubscribed' }).waitFor();
    expect(posted).toEqual([{ path: '/subscriptions/sub_1/unsubscribe', code: CODE, contentType: 'application/x-www-form-urlencoded', body: 'List-Unsubscribe=One-Click' }]);
    expect(await page.getByText('You will get no more mails about game').isVisible()).toBe(true);
    await screenshot(page, 'email-unsubscribed');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a wrong code shows that the link is not valid, and offers no button', async () => {
    const { page } = await open('/subscriptions/sub_1/unsubscribe?code=wrong');
    expect(await page.getByRole('heading', { name: 'This link is not valid' }).isVisible()).toBe(true);
    expect(await page.getByRole('button').count()).toBe(0);
    await page.close();
  });
});
