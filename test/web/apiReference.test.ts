import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCREENSHOTS, startSession, type Session } from './browserSession';

let session: Session;
beforeAll(async () => {
  session = await startSession();
});
afterAll(async () => {
  await session?.close();
});

describe('the API reference at /docs', () => {
  it('renders every tag of /openapi.json from this origin, with no console error', async () => {
    const requests: string[] = [];
    session.context.on('request', (request) => void requests.push(request.url()));
    const page = await session.open('/docs');
    const documented = (await (await fetch(new URL('/openapi.json', session.service.url))).json()) as { tags: { name: string }[] };
    const tagNames = documented.tags.map(({ name }) => name.toLowerCase());
    // RapiDoc draws inside its shadow root (playwright's CSS pierces it) and may keep the page busy
    // for many seconds parsing a large document. Text search over the whole page is slow, so the
    // tags are read from the navigation and the section titles by class.
    await page.locator('.nav-bar-tag').first().waitFor({ timeout: 60_000 });
    expect((await page.locator('.nav-bar-tag').allInnerTexts()).map((text) => text.trim().toLowerCase())).toEqual(tagNames);
    const titles = page.locator('.title.tag');
    expect((await titles.allInnerTexts()).map((text) => text.trim().toLowerCase())).toEqual(tagNames);
    expect(await titles.evaluateAll((elements) => elements.every((element) => element.checkVisibility()))).toBe(true);
    await page.locator('.mono-font').filter({ hasText: '/tournaments/{id}/export' }).first().waitFor();
    await page.screenshot({ path: new URL('api-reference.png', SCREENSHOTS).pathname });
    expect(session.errors.get(page)).toEqual([]);
    const origin = new URL(session.service.url).origin;
    expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual([]);
  }, 180_000);
});
