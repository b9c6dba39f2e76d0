// The browser tests' room: the local service in this process on loopback, and Debian's
// Chromium driven by playwright-core (no downloaded browser).
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startLocalService, type LocalOptions, type LocalService } from '../../functions/local/localService';

export const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/**
 * Where screenshots go: docs/screenshots/ only when asked (UPDATE_DOCS=1), so a test run
 * never dirties a checkout; otherwise a scratch folder, the pages still drawn and captured.
 */
export const SCREENSHOTS =
  process.env.UPDATE_DOCS === '1' ? new URL('../../docs/screenshots/', import.meta.url) : new URL(`file://${mkdtempSync(join(tmpdir(), 'arbiter-screenshots-'))}/`);

export interface Session {
  service: LocalService;
  browser: Browser;
  context: BrowserContext;
  /** Console errors and uncaught exceptions, per page, as text. */
  errors: Map<Page, string[]>;
  open(path: string): Promise<Page>;
  close(): Promise<void>;
}

export async function startSession(options: LocalOptions = {}): Promise<Session> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
  const service = await startLocalService({ host: '127.0.0.1', ...options });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 30_000 });
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, reducedMotion: 'reduce' });
  context.setDefaultTimeout(10_000);
  const errors = new Map<Page, string[]>();
  return {
    service,
    browser,
    context,
    errors,
    async open(path) {
      const page = await context.newPage();
      const list: string[] = [];
      errors.set(page, list);
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') list.push(`${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => list.push(`pageerror: ${e.message}`));
      await page.goto(new URL(path, service.url).href);
      return page;
    },
    async close() {
      await browser.close().catch(() => {});
      await service.close();
    },
  };
}

/** The API from Node, as another client would call it. */
export async function callApi(service: LocalService, method: string, path: string, token?: string, body?: unknown) {
  const response = await fetch(new URL(path, service.url), {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text && response.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : undefined, text };
}

export interface CreatedGame {
  gameId: string;
  tokens: { organizer: string; players: Record<string, string> };
}

export async function createGame(service: LocalService, body: Record<string, unknown> = { ruleset: 'dice', title: 'Test game' }): Promise<CreatedGame> {
  const created = await callApi(service, 'POST', '/games', undefined, body);
  if (created.status !== 201) throw new Error(`create: ${created.status} ${created.text}`);
  return created.json;
}

export const linkOf = (gameId: string, token: string) => `/#/games/${encodeURIComponent(gameId)}?token=${encodeURIComponent(token)}`;
/** The token a page link carries in its fragment's query. */
export const tokenOf = (link: string) => new URLSearchParams(link.split('?')[1]).get('token')!;

/** The accessible name of the focused control, as a keyboard user meets it: aria-label, its label, or its text. */
export const focusedName = (page: Page) =>
  page.evaluate<string>("(() => { const e = document.activeElement; return e ? (e.getAttribute('aria-label') || (e.labels && e.labels[0] ? e.labels[0].textContent : '') || e.textContent || '') : '' })()");

/** Presses Tab until the control named `name` has the focus; false if it never does. */
export async function tabTo(page: Page, name: string, most = 40): Promise<boolean> {
  for (let i = 0; i < most; i++) {
    if ((await focusedName(page)) === name) return true;
    await page.keyboard.press('Tab');
  }
  return (await focusedName(page)) === name;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: new URL(`${name}.png`, SCREENSHOTS).pathname, fullPage: true, animations: 'disabled' });
}
