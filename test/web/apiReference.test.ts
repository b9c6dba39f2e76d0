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
    // RapiDoc draws inside its shadow root; playwright's locators pierce it.
    for (const { name } of documented.tags) await expect(page.getByText(name, { exact: false }).first().isVisible({ timeout: 10_000 })).resolves.toBe(true);
    await page.getByText('/tournaments/{id}/export').first().waitFor();
    await page.screenshot({ path: new URL('api-reference.png', SCREENSHOTS).pathname });
    expect(session.errors.get(page)).toEqual([]);
    const origin = new URL(session.service.url).origin;
    expect(requests.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'))).toEqual([]);
  });
});
