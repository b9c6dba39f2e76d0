import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotateKey } from '../../functions/local/keyFiles';
import { callApi, createGame, linkOf, startSession, type Session } from './browserSession';

// A game played and sealed before `npm run rotate-key`, opened after it: the case the start
// banner used to break by naming only the new key (trust.md §6).
let session: Session;
let before: { gameId: string; token: string; fingerprint: string; export: unknown };

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'arbiter-web-rotation-'));
  const first = await startSession({ dataDir });
  try {
    const game = await createGame(first.service, { ruleset: 'dice', title: 'Before the rotation' });
    await callApi(first.service, 'POST', `/games/${game.gameId}/commands`, game.tokens.players.player1, { commandId: 'r', type: 'Roll', payload: { dice: '2d6', purpose: 'old key' } });
    await callApi(first.service, 'POST', `/games/${game.gameId}/commands`, game.tokens.organizer, { commandId: 's', type: 'Seal', payload: {} });
    const fingerprint = (await callApi(first.service, 'GET', '/keys')).json.keys[0].fingerprint;
    before = { gameId: game.gameId, token: game.tokens.players.player1, fingerprint, export: undefined };
  } finally {
    await first.close();
  }
  rotateKey(dataDir, new Date().toISOString());
  session = await startSession({ dataDir });
  before.export = (await callApi(session.service, 'GET', `/games/${before.gameId}/export`, before.token)).json;
});
afterAll(async () => {
  await session?.close();
});

describe('after a key rotation, in the browser', () => {
  it('the verify page pins every key of /keys by default, so a game sealed before the rotation verifies green', async () => {
    const keys = (await callApi(session.service, 'GET', '/keys')).json.keys as { fingerprint: string; status: string }[];
    expect(keys.map((k) => k.status)).toEqual(['current', 'retired']);
    const page = await session.open('/#/verify');
    await expect.poll(() => page.getByLabel('Trusted fingerprints (one per line)').inputValue()).toBe(keys.map((k) => k.fingerprint).join('\n'));
    await page.getByLabel('Export file (JSON)').setInputFiles({ name: 'before.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(before.export)) });
    await page.locator('.verdict').waitFor();
    expect(await page.locator('.verdict').getAttribute('data-exit-code')).toBe('0');
    expect(session.errors.get(page)).toEqual([]);
  });

  it('the timeline shows the retired key that signed the game, not the current one, and its verify link verifies green', async () => {
    const page = await session.open(linkOf(before.gameId, before.token));
    await page.locator('tr[data-seq="3"]').waitFor();
    await expect.poll(() => page.locator('[data-field="fingerprint"]').textContent()).toBe(`${before.fingerprint} (since retired)`);
    await page.locator('[data-verify-link]').click();
    await page.locator('.verdict').waitFor();
    expect(await page.locator('.verdict').getAttribute('data-exit-code')).toBe('0');
    expect(session.errors.get(page)).toEqual([]);
  });
});
