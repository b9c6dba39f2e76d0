// Beacon games in the web app (docs/beacon.md): a loopback drand relay serving a test chain
// (a round a second), the server revealing rolls from it, the pages in Chromium.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { beaconSignatureValid } from '../../domain/beacon/blsSignature';
import { QUICKNET } from '../../domain/beacon/chain';
import { BeaconRelay } from '../../functions/application/beaconRelay';
import { QUICKNET_BEACONS } from '../domain/beacon/vector';
import { buildBeaconGame } from '../support/beaconGame';
import { startLoopbackRelay, type LoopbackRelay } from '../support/loopbackRelay';
import { testBeaconChain } from '../support/testBeaconChain';
import { callApi, createGame, linkOf, screenshot, startSession, tabTo, type Session } from './browserSession';

const chain = testBeaconChain({ name: 'arbiter-test', period: 1 });
let relay: LoopbackRelay;
let session: Session;
let fingerprint: string;

beforeAll(async () => {
  relay = await startLoopbackRelay({ chains: [chain] });
  session = await startSession({
    dataDir: mkdtempSync(join(tmpdir(), 'arbiter-web-b32-beacon-')),
    beaconChains: new Map([[QUICKNET.chain, QUICKNET], [chain.chain.chain, chain.chain]]),
    beaconSource: new BeaconRelay({ relays: [relay.url], check: beaconSignatureValid, retryDelayMs: 100, timeoutMs: 2_000 }),
  });
  fingerprint = (await callApi(session.service, 'GET', '/keys')).json.keys[0].fingerprint;
});
afterAll(async () => {
  await session?.close();
  await relay?.close();
});
// A test that takes the relay down brings it back even when it fails: the others need it.
afterEach(async () => {
  await relay.up().catch(() => undefined);
});

const beaconGameOf = (body: Record<string, unknown>) => createGame(session.service, { ...body, randomness: { beacon: chain.chain.chain } });
const rows = (page: Page) => page.locator('table.timeline tbody tr');

async function verifyOnPage(bundle: unknown, options: { fingerprint: string; pin?: string }) {
  const page = await session.open('/#/verify');
  const asked: string[] = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));
  await expect.poll(() => page.getByLabel('Trusted fingerprints (one per line)').inputValue()).not.toBe('');
  await page.getByLabel('Trusted fingerprints (one per line)').fill(options.fingerprint);
  if (options.pin) await page.getByLabel('Trusted drand chains other than quicknet (chain hash, or hash:public key, one per line)').fill(options.pin);
  await page.getByLabel('Export file (JSON)').setInputFiles({ name: 'beacon-game.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bundle)) });
  await page.locator('.verdict').waitFor({ timeout: 30_000 });
  return { page, asked };
}

describe('a beacon game in the web app', () => {
  it('shows a roll sent by keyboard as pending with the sender’s check ✓, warns while its reveal is late, and shows the result once revealed', async () => {
    const game = await beaconGameOf({ ruleset: 'dice', title: 'Beacon night' });
    const page = await session.open(linkOf(game.gameId, game.tokens.players.player1));
    await page.locator('tr[data-seq="1"]').waitFor();
    expect(await page.locator('[data-field="beacon"]').textContent()).toBe('beacon dice: each roll waits for a drand round of the arbiter-test chain');

    // The relay is down: the roll stays pending, long enough to be late.
    await relay.down('503');
    expect(await tabTo(page, 'Dice')).toBe(true);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('3d6');
    expect(await tabTo(page, 'Purpose')).toBe(true);
    await page.keyboard.type('assault on Carentan');
    await page.keyboard.press('Enter');

    const check = page.locator('.sender-check');
    await expect.poll(() => check.textContent()).toMatch(/^round \d+ was still in the future when the server accepted ✓$/);
    const round = Number((await check.textContent())!.match(/round (\d+)/)![1]);
    const pending = page.locator('tr[data-seq="2"]');
    await pending.waitFor();
    expect(await pending.getAttribute('class')).toBe('pending-roll');
    expect(await pending.locator('td.line').textContent()).toMatch(new RegExp(`^#2 player1 Roll waits for drand round ${round} \\(due \\d\\d:\\d\\d:\\d\\d\\) \\[[0-9a-f]{8}\\]$`));
    expect(await pending.locator('td.result').textContent()).toBe(`waits for drand round ${round}`);
    expect(await page.locator('.command-box [role="status"]').first().textContent()).toMatch(new RegExp(`^Accepted as #2: the dice come with drand round ${round} \\(due \\d\\d:\\d\\d:\\d\\d\\)`));
    expect(await page.locator('.beacon-late').isVisible()).toBe(false);
    await screenshot(page, 'beacon-pending');

    // Late: five periods and 15 s after its round. The page says so, in words.
    const late = page.getByRole('alert');
    await expect.poll(() => late.textContent(), { timeout: 40_000 }).toMatch(new RegExp(`^The reveal of roll #2 is late: drand round ${round} was due at \\d\\d:\\d\\d:\\d\\d`));
    expect(await late.isVisible()).toBe(true);
    expect(await rows(page).count()).toBe(2);

    // The relay is back: the reveal comes, the warning goes, the command box gives the result.
    await relay.up();
    const reveal = page.locator('tr[data-seq="3"]');
    await reveal.waitFor({ timeout: 30_000 });
    expect(await reveal.locator('td.actor').textContent()).toBe('server');
    expect(await reveal.locator('.die').count()).toBe(3);
    expect(await reveal.locator('td.line').textContent()).toMatch(new RegExp(`^#3 server RevealBeacon drand round ${round} for #2: "assault on Carentan": 3d6 = `));
    expect(await reveal.locator('td.result').textContent()).not.toBe('');
    await expect.poll(() => page.locator('.beacon-late').isVisible(), { timeout: 10_000 }).toBe(false);
    await expect.poll(() => page.locator('.command-box [role="status"]').first().textContent()).toMatch(/^Revealed: #3 server RevealBeacon drand round \d+ for #2: "assault on Carentan"/);
    expect(session.errors.get(page)).toEqual([]);
  }, 120_000);

  it('answers a 409 beacon_pending by sending the command again after Retry-After, then shows it pending and revealed', async () => {
    const game = await beaconGameOf({ ruleset: 'dice', title: 'Busy table' });
    const page = await session.open(linkOf(game.gameId, game.tokens.players.player2));
    await page.locator('tr[data-seq="1"]').waitFor();
    await page.getByLabel('Dice', { exact: true }).fill('1d6');
    await page.getByLabel('Purpose').fill('counter-battery');
    // The other side's roll waits for its round: the game takes nothing else until it is revealed.
    const first = await callApi(session.service, 'POST', `/games/${game.gameId}/commands`, game.tokens.players.player1, { commandId: 'p1', type: 'Roll', payload: { dice: '2d6', purpose: 'barrage' } });
    expect(first.status).toBe(202);
    await page.getByRole('button', { name: 'Roll' }).click();
    const status = page.locator('.command-box [role="status"]').first();
    await expect.poll(() => status.textContent()).toMatch(/^The game waits for the dice of an earlier roll; sending again in \d+ s…$/);
    // Once #2 is revealed (#3), the same command goes again and is accepted as #4.
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/^Accepted as #4: the dice come with drand round \d+/);
    expect(await page.locator('.sender-check').textContent()).toMatch(/was still in the future when the server accepted ✓$/);
    await page.locator('tr[data-seq="5"]').waitFor({ timeout: 20_000 });
    await expect.poll(() => status.textContent()).toMatch(/^Revealed: #5 server RevealBeacon drand round \d+ for #4: "counter-battery": 1d6 = \d/);
    expect(await page.locator('tr[data-seq="3"] td.line').textContent()).toMatch(/^#3 server RevealBeacon drand round \d+ for #2: "barrage": 2d6 = /);
    // The browser logs the 409 itself; the page adds nothing.
    expect(session.errors.get(page)!.filter((e) => !e.includes('status of 409'))).toEqual([]);
  }, 60_000);

  it('verifies a beacon tournament’s round on its page, drand signatures included, with the chain pinned', async () => {
    const tournament = (await callApi(session.service, 'POST', '/tournaments', undefined, { name: 'Beacon round', randomness: { beacon: chain.chain.chain } })).json as { tournamentId: string; token: string };
    const created = await callApi(session.service, 'POST', '/games', tournament.token, { ruleset: 'dice', title: 'Table 1' });
    expect(created.status).toBe(201);
    const gameId = created.json.gameId as string;
    const sent = await callApi(session.service, 'POST', `/games/${gameId}/commands`, tournament.token, { commandId: 'r1', type: 'Roll', payload: { dice: '2d6', purpose: 'opening' }, as: 'player1' });
    expect(sent.status).toBe(202);
    await expect.poll(async () => (await callApi(session.service, 'GET', `/games/${gameId}`, tournament.token)).json.version, { timeout: 20_000 }).toBe(3);
    expect((await callApi(session.service, 'POST', `/games/${gameId}/commands`, tournament.token, { commandId: 'seal', type: 'Seal', payload: {} })).status).toBe(201);

    const page = await session.open(`/#/tournaments/${encodeURIComponent(tournament.tournamentId)}?token=${encodeURIComponent(tournament.token)}`);
    await expect.poll(() => page.getByLabel('Trusted fingerprints (one per line)').inputValue()).not.toBe('');
    await page.getByLabel('Trusted drand chains other than quicknet (chain hash, or hash:public key, one per line)').fill(chain.chain.chainHash);
    await page.getByRole('button', { name: 'Verify the round' }).click();
    await expect.poll(() => page.locator('.report .verdict').getAttribute('data-exit-code'), { timeout: 30_000 }).toBe('0');
    expect(await page.locator('.report .beacons').textContent()).toBe('drand beacons: 1 round checked ✓ (chain arbiter-test)');
    expect(session.errors.get(page)).toEqual([]);
  }, 60_000);

  it('sends a France 1944 combat from the page: pending, then revealed as the combat’s result; sealed, it verifies in the browser', async () => {
    const game = await beaconGameOf({ ruleset: 'france44', title: 'Beacon France' });
    const allied = game.tokens.players.allied;
    const send = (commandId: string, type: string, payload: unknown = {}) => callApi(session.service, 'POST', `/games/${game.gameId}/commands`, allied, { commandId, type, payload });
    for (const [id, type, payload] of [
      ['t1', 'StartTurn', { turn: 1 }],
      ['i1', 'BeginAttackIncrement', {}],
      ['d1', 'DeclareCombat', { combatId: 'c1', kind: 'set-piece', attackers: [{ unitId: 'a', hex: '2708', strength: 6 }], defenders: [{ unitId: 'd', hex: '2709', strength: 3 }], attackerMorale: 3, defenderMorale: 3 }],
    ] as const) expect((await send(id, type, payload)).status, type).toBe(201);

    const page = await session.open(linkOf(game.gameId, allied));
    await page.locator('tr[data-seq="4"]').waitFor();
    await page.getByLabel('Command', { exact: true }).selectOption('ResolveCombat');
    await page.locator('.command-box input[type="text"]').first().fill('c1');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => page.locator('.sender-check').textContent()).toMatch(/was still in the future when the server accepted ✓$/);
    await page.locator('tr[data-seq="5"].pending-roll').waitFor();
    const reveal = page.locator('tr[data-seq="6"]');
    await reveal.waitFor({ timeout: 20_000 });
    const commits = (await callApi(session.service, 'GET', `/games/${game.gameId}/events`, allied)).json.commits;
    const code: string = commits[5].events.find((e: { type: string }) => e.type === 'CombatResolved').data.code;
    expect(await reveal.locator('td.result').textContent()).toBe(code === 'C' ? 'C: defender -2 steps' : code);
    expect(await reveal.locator('td.line').textContent()).toMatch(/^#6 server RevealBeacon drand round \d+ for #5: c1: /);
    expect(session.errors.get(page)).toEqual([]);

    // Sealed and exported, it verifies in the browser: France 1944's rules replayed, its beacon checked.
    expect((await callApi(session.service, 'POST', `/games/${game.gameId}/commands`, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} })).status).toBe(201);
    const bundle = (await callApi(session.service, 'GET', `/games/${game.gameId}/export`, allied)).json;
    const verified = await verifyOnPage(bundle, { fingerprint, pin: `${chain.chain.chainHash}:${chain.chain.publicKey}` });
    expect(await verified.page.locator('.verdict').getAttribute('data-exit-code')).toBe('0');
    expect(await verified.page.locator('.beacons').textContent()).toBe('drand beacons: 1 round checked ✓ (chain arbiter-test)');
  }, 60_000);

  it('verifies the sealed export in the browser, drand signatures included, once the chain is pinned; without the pin it fails naming the chain', async () => {
    const game = await beaconGameOf({ ruleset: 'dice', title: 'To verify' });
    const roll = async (commandId: string) => {
      const sent = await callApi(session.service, 'POST', `/games/${game.gameId}/commands`, game.tokens.players.player1, { commandId, type: 'Roll', payload: { dice: '2d6', purpose: commandId } });
      expect(sent.status).toBe(202);
      const seq = sent.json.commit.seq as number;
      await expect.poll(async () => (await callApi(session.service, 'GET', `/games/${game.gameId}`, game.tokens.organizer)).json.version, { timeout: 20_000 }).toBe(seq + 1);
    };
    await roll('r1');
    await roll('r2');
    expect((await callApi(session.service, 'POST', `/games/${game.gameId}/commands`, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} })).status).toBe(201);
    const bundle = (await callApi(session.service, 'GET', `/games/${game.gameId}/export`, game.tokens.organizer)).json;

    const pinned = await verifyOnPage(bundle, { fingerprint, pin: chain.chain.chainHash.toUpperCase() });
    expect(await pinned.page.locator('.verdict').getAttribute('data-exit-code')).toBe('0');
    expect(await pinned.page.locator('.beacons').textContent()).toBe('drand beacons: 2 rounds checked ✓ (chain arbiter-test)');
    // The BLS code came only now, as a file of its own.
    expect(pinned.asked).toContain('/assets/beaconCheck.js');
    await screenshot(pinned.page, 'beacon-verify');
    expect(session.errors.get(pinned.page)).toEqual([]);

    const unpinned = await verifyOnPage(bundle, { fingerprint });
    expect(await unpinned.page.locator('.verdict').getAttribute('data-exit-code')).toBe('1');
    expect(await unpinned.page.locator('.verdict').textContent()).toContain(`the game uses the drand chain "arbiter-test" (${chain.chain.chainHash}), which this verifier does not know`);
    expect(await unpinned.page.locator('.beacons').textContent()).toMatch(/^drand beacons \(chain arbiter-test\): not verified — the game uses the drand chain "arbiter-test"/);
    expect(session.errors.get(unpinned.page)).toEqual([]);
  }, 90_000);

  it('verifies a game on quicknet’s real rounds with no pin, and fails one whose beacon was forged', async () => {
    const { bundle, fingerprint: signer } = buildBeaconGame();
    const genuine = await verifyOnPage(bundle, { fingerprint: signer });
    expect(await genuine.page.locator('.verdict').getAttribute('data-exit-code')).toBe('0');
    expect(await genuine.page.locator('.beacons').textContent()).toMatch(/^drand beacons: \d+ rounds? checked ✓ \(chain quicknet\)$/);
    expect(session.errors.get(genuine.page)).toEqual([]);

    // A real quicknet signature, of another round: only the BLS check can tell.
    const forged = JSON.parse(JSON.stringify(bundle));
    const reveal = forged.commits.find((c: { command: { type: string } }) => c.command.type === 'RevealBeacon');
    const { round } = reveal.command.payload;
    reveal.command.payload.signature = QUICKNET_BEACONS.find((b) => b.round !== round)!.signature;
    const refused = await verifyOnPage(forged, { fingerprint: signer });
    expect(await refused.page.locator('.verdict').getAttribute('data-exit-code')).toBe('1');
    expect(await refused.page.locator('.beacons').textContent()).toContain(`not verified — the drand signature of round ${round} does not verify under the public key of quicknet`);
  }, 60_000);

  it('does not load the BLS code for a game that is no beacon game', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Plain' });
    await callApi(session.service, 'POST', `/games/${game.gameId}/commands`, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    const bundle = (await callApi(session.service, 'GET', `/games/${game.gameId}/export`, game.tokens.organizer)).json;
    const { page, asked } = await verifyOnPage(bundle, { fingerprint });
    expect(await page.locator('.verdict').getAttribute('data-exit-code')).toBe('0');
    expect(await page.locator('.beacons').count()).toBe(0);
    expect(asked).toContain('/assets/verifyWorker.js');
    expect(asked).not.toContain('/assets/beaconCheck.js');
  });

  it('creates a beacon game and a beacon tournament from the forms, with the “Beacon dice (drand quicknet)” box ticked by keyboard', async () => {
    const page = await session.open('/#/organize');
    await page.getByLabel('Ruleset').selectOption('dice');
    expect(await tabTo(page, 'Beacon dice (drand quicknet)')).toBe(true);
    await page.keyboard.press('Space');
    expect(await page.getByLabel('Beacon dice (drand quicknet)').isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Create the game' }).click();
    const organizerLink = await page.getByLabel('Organizer link', { exact: true }).inputValue();
    const params = new URLSearchParams(organizerLink.split('?')[1]);
    const gameId = decodeURIComponent(organizerLink.match(/#\/games\/([^?]+)/)![1]);
    const view = (await callApi(session.service, 'GET', `/games/${gameId}`, params.get('token')!)).json;
    expect(view.beacon).toMatchObject({ chain: 'quicknet', chainHash: '52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971' });

    const tournament = await session.open('/#/tournaments');
    const bodies: unknown[] = [];
    tournament.on('request', (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/tournaments' && bodies.push(r.postDataJSON()));
    await tournament.getByRole('textbox', { name: 'Name' }).fill('Beacon cup');
    await tournament.getByLabel('Beacon dice (drand quicknet)').check();
    await tournament.getByRole('button', { name: 'Create the tournament' }).click();
    await tournament.waitForURL(/#\/tournaments\/t-/);
    expect(bodies).toEqual([{ name: 'Beacon cup', randomness: { beacon: 'quicknet' } }]);
    expect(session.errors.get(page)).toEqual([]);
  });
});
