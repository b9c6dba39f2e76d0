import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportBundle } from '../../domain/verify/exportBundle';
import { copyOf, forged, newKey } from '../domain/verify/signedExports';
import { callApi, createGame, linkOf, screenshot, startSession, type Session } from './browserSession';

let session: Session;
let genuine: ExportBundle;
let fingerprint: string;
let link: string;

beforeAll(async () => {
  session = await startSession();
  const game = await createGame(session.service, { ruleset: 'dice', title: 'To verify' });
  const post = (token: string, body: unknown) => callApi(session.service, 'POST', `/games/${game.gameId}/commands`, token, body);
  for (let i = 1; i <= 4; i++) await post(game.tokens.players[i % 2 ? 'player1' : 'player2'], { commandId: `r${i}`, type: 'Roll', payload: { dice: '2d6+1d8', purpose: `volley ${i}` } });
  await post(game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
  genuine = (await callApi(session.service, 'GET', `/games/${game.gameId}/export`, game.tokens.players.player1)).json;
  fingerprint = (await callApi(session.service, 'GET', '/keys')).json.keys[0].fingerprint;
  link = linkOf(game.gameId, game.tokens.players.player1);
});
afterAll(async () => {
  await session?.close();
});

async function verifyFile(bundle: unknown, name: string) {
  const page = await session.open('/#/verify');
  await expect.poll(() => page.getByLabel('Trusted fingerprints (one per line)').inputValue()).toBe(fingerprint);
  await page.getByLabel('Export file (JSON)').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bundle)) });
  await page.locator('.verdict').waitFor();
  return page;
}

describe('the verify page (/#/verify)', () => {
  it('passes a genuine export, in the browser, against the server key pinned from /keys', async () => {
    const page = await verifyFile(genuine, 'genuine.json');
    expect(await page.locator('.verdict').getAttribute('data-exit-code')).toBe('0');
    expect(await page.locator('.verdict').textContent()).toMatch(/^Verified/);
    expect(await page.locator('table.per-commit tbody tr').count()).toBe(6);
    expect(await page.locator('table.per-commit tr.bad').count()).toBe(0);
    expect(await page.locator('.untrusted').count()).toBe(0);
    expect(await page.locator('li[data-check="dice"]').textContent()).toBe('dice: passed');
    // The time each side used, re-derived from the signed recordedAt of the commits (docs/clocks.md).
    expect(await page.locator('[data-time-used]').textContent()).toMatch(/^player1 [\d.]+ s, player2 [\d.]+ s \(to the last commit, [\dT:.Z-]+\); nobody to move$/);
    await screenshot(page, 'verify-genuine');
    expect(session.errors.get(page)).toEqual([]);
  });

  it('names the first failing seq of a tampered export and highlights it', async () => {
    const tampered = copyOf(genuine);
    (tampered.commits[2].command.payload as { purpose: string }).purpose = 'a different purpose';
    const page = await verifyFile(tampered, 'tampered.json');
    expect(await page.locator('.verdict').getAttribute('data-exit-code')).toBe('1');
    expect(await page.locator('.verdict').textContent()).toMatch(/^Failed: the first failure is at #3 \(/);
    expect(await page.locator('tr.first-failure').getAttribute('data-seq')).toBe('3');
    expect(await page.locator('tr.first-failure .marker').textContent()).toContain('first failure');
    // The rules stop short of the last commit: no figures for a part of the game.
    expect(await page.locator('[data-time-used]').count()).toBe(0);
    await screenshot(page, 'verify-tampered');
    expect(session.errors.get(page)).toEqual([]);
  });

  it('shows an export re-signed with another key as not signed by the pinned key', async () => {
    const forger = newKey('forger');
    const page = await verifyFile(forged(copyOf(genuine), forger), 'forged.json');
    expect(await page.locator('.verdict').getAttribute('data-exit-code')).toBe('1');
    expect(await page.locator('.untrusted').textContent()).toMatch(/^Not signed by the pinned key: signed by ed25519:[\w-]{43}, which none of your trusted fingerprints reaches/);
    expect(await page.locator('.untrusted').textContent()).not.toContain(fingerprint);
    expect(await page.locator('li[data-check="trust"]').getAttribute('class')).toBe('bad');
    await screenshot(page, 'verify-forged');
    // Pinning the forger's own fingerprint is the person's choice: then it is consistent.
    const forgedFingerprint = (await page.locator('.untrusted').textContent())!.match(/ed25519:[\w-]{43}/)![0];
    await page.getByLabel('Trusted fingerprints (one per line)').fill(forgedFingerprint);
    await page.getByRole('button', { name: 'Verify again' }).click();
    await expect.poll(() => page.locator('.verdict').getAttribute('data-exit-code')).toBe('0');
    expect(session.errors.get(page)).toEqual([]);
  });

  it('loads a game’s export by its link from the timeline, verified in the page: nothing is uploaded', async () => {
    const timeline = await session.open(link);
    await timeline.locator('tr[data-seq="6"]').waitFor();
    const uploads: string[] = [];
    timeline.on('request', (r) => {
      if (r.method() !== 'GET') uploads.push(`${r.method()} ${r.url()}`);
    });
    await timeline.getByRole('link', { name: 'Verify this game in your browser' }).click();
    await timeline.locator('.verdict').waitFor();
    expect(await timeline.locator('.verdict').getAttribute('data-exit-code')).toBe('0');
    expect(uploads).toEqual([]);
    expect(session.errors.get(timeline)).toEqual([]);
  });

  it('takes a dropped file; an unsealed game is inconclusive until the person accepts unsealed games', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Still playing' });
    await callApi(session.service, 'POST', `/games/${game.gameId}/commands`, game.tokens.players.player1, { commandId: 'r', type: 'Roll', payload: { dice: '1d6', purpose: 'in play' } });
    const unsealed = (await callApi(session.service, 'GET', `/games/${game.gameId}/export`, game.tokens.organizer)).json;
    const page = await session.open('/#/verify');
    await expect.poll(() => page.getByLabel('Trusted fingerprints (one per line)').inputValue()).toBe(fingerprint);
    await page.evaluate(`(() => {
      const data = new DataTransfer();
      data.items.add(new File([${JSON.stringify(JSON.stringify(unsealed))}], 'dropped.json', { type: 'application/json' }));
      document.querySelector('.drop-zone').dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
    })()`);
    await page.locator('.verdict').waitFor();
    expect(await page.locator('.verdict').getAttribute('data-exit-code')).toBe('3');
    expect(await page.locator('.verdict').textContent()).toContain('not sealed yet');
    expect(await page.locator('[role="status"]').first().textContent()).toBe('Checked dropped.json.');
    await page.getByLabel('Accept a game not sealed yet (its dice cannot be checked until then)').check();
    await expect.poll(() => page.locator('.verdict').getAttribute('data-exit-code')).toBe('0');
    expect(await page.locator('li[data-check="dice"]').textContent()).toBe('dice: not checked until sealed');
    expect(session.errors.get(page)).toEqual([]);
  });
});
