// Results a wargamer can scan: the Result column gives the ruleset's result text (the CRT
// letter, a dice total), the Time column a date, and a new game asks for entropy before the
// first roll, by keyboard only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, createGame, linkOf, screenshot, startSession, tabTo, type Session } from './browserSession';

let session: Session;
beforeAll(async () => {
  session = await startSession();
});
afterAll(async () => {
  await session?.close();
});

const send = async (gameId: string, token: string, commandId: string, type: string, payload: unknown = {}) => {
  const reply = await callApi(session.service, 'POST', `/games/${gameId}/commands`, token, { commandId, type, payload });
  expect(reply.status, reply.text).toBe(201);
  return reply.json;
};
const commitsOf = async (gameId: string, token: string) => (await callApi(session.service, 'GET', `/games/${gameId}/events`, token)).json.commits;

describe('the Result and Time columns', () => {
  it("shows a France 1944 combat's CRT letter and a dice total, and the date of each commit", async () => {
    const game = await createGame(session.service, { ruleset: 'france44', title: 'France' });
    const allied = game.tokens.players.allied;
    await send(game.gameId, allied, 't1', 'StartTurn', { turn: 1 });
    await send(game.gameId, allied, 'i1', 'BeginAttackIncrement');
    await send(game.gameId, allied, 'd1', 'DeclareCombat', {
      combatId: 'c1',
      kind: 'set-piece',
      attackers: [{ unitId: 'a', hex: '2708', strength: 6 }],
      defenders: [{ unitId: 'd', hex: '2709', strength: 3 }],
      attackerMorale: 3,
      defenderMorale: 3,
    });
    await send(game.gameId, allied, 'r1', 'ResolveCombat', { combatId: 'c1' });
    const commits = await commitsOf(game.gameId, allied);
    const code: string = commits[4].events.find((e: { type: string }) => e.type === 'CombatResolved').data.code;

    const page = await session.open(linkOf(game.gameId, allied));
    const row = page.locator('tr[data-seq="5"]');
    await row.waitFor();
    expect(await row.locator('td.result').textContent()).toBe(code === 'C' ? 'C: defender -2 steps' : code);
    // A commit that resolves nothing has no result, not an event name.
    expect(await page.locator('tr[data-seq="2"] td.result').textContent()).toBe('');

    // The date as well as the time, in the reader's locale; the full ISO time in the datetime and title.
    const time = row.locator('td.time time');
    const recordedAt: string = commits[4].recordedAt;
    expect(await time.getAttribute('datetime')).toBe(recordedAt);
    expect(await time.getAttribute('title')).toBe(recordedAt);
    const [date, clock] = await page.evaluate((at) => [new Date(at).toLocaleDateString(undefined, { dateStyle: 'medium' }), new Date(at).toLocaleTimeString(undefined, { timeStyle: 'medium' })], recordedAt);
    const shown = await time.textContent();
    expect(shown).toContain(date);
    expect(shown).toContain(clock);
    expect(shown).toContain(recordedAt.slice(0, 4));
    await screenshot(page, 'timeline-results');

    const dice = await createGame(session.service, { ruleset: 'dice', title: 'Dice' });
    const reply = await send(dice.gameId, dice.tokens.players.player1, 'roll', 'Roll', { dice: '3d6+1', purpose: 'barrage' });
    const total = reply.commit.events[0].data.total;
    const player = await session.open(linkOf(dice.gameId, dice.tokens.players.player1));
    await player.locator('tr[data-seq="2"]').waitFor();
    expect(await player.locator('tr[data-seq="2"] td.result').textContent()).toBe(`total ${total}`);
    expect(session.errors.get(page)).toEqual([]);
    expect(session.errors.get(player)).toEqual([]);
  });
});

describe('the entropy prompt', () => {
  it('asks for entropy on a new game, takes it by keyboard, and is gone once a die is rolled', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Entropy first' });
    const page = await session.open(linkOf(game.gameId, game.tokens.players.player1));
    await page.locator('tr[data-seq="1"]').waitFor();
    const prompt = page.getByRole('form', { name: 'Before the first roll: add entropy' });
    await prompt.waitFor();
    expect(await prompt.textContent()).toContain('once the first die is rolled, no more can be added');
    await screenshot(page, 'timeline-entropy');

    expect(await tabTo(page, 'Entropy')).toBe(true);
    await page.keyboard.type('rain over Caen');
    expect(await tabTo(page, 'Add entropy')).toBe(true);
    await page.keyboard.press('Enter');
    await page.locator('tr[data-seq="2"][data-type="ContributeEntropy"]').waitFor();
    await expect.poll(() => prompt.locator('[role="status"]').textContent()).toBe('Added as #2. Anyone may add more until the first roll.');
    // No die yet: the prompt stays for the other players' entropy.
    expect(await prompt.count()).toBe(1);

    expect(await tabTo(page, 'Dice')).toBe(true);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('2d6');
    expect(await tabTo(page, 'Purpose')).toBe(true);
    await page.keyboard.type('first fire');
    await page.keyboard.press('Enter');
    await page.locator('tr[data-seq="3"]').waitFor();
    await expect.poll(() => prompt.count()).toBe(0);

    // A reader arriving later sees no prompt: the game's entropy is locked.
    const later = await session.open(linkOf(game.gameId, game.tokens.players.player2));
    await later.locator('tr[data-seq="3"]').waitFor();
    await later.locator('.command-box').waitFor();
    expect(await later.getByRole('form', { name: 'Before the first roll: add entropy' }).count()).toBe(0);
    const view = (await callApi(session.service, 'GET', `/games/${game.gameId}`, game.tokens.organizer)).json;
    expect(view.entropy).toEqual({ contributions: 1, locked: true });
    expect(session.errors.get(page)).toEqual([]);
  });

  it('is not shown to a spectator', async () => {
    const game = await createGame(session.service, { ruleset: 'dice', title: 'Watched' });
    const viewer = await callApi(session.service, 'POST', `/games/${game.gameId}/viewers`, game.tokens.organizer, { label: 'stream' });
    expect(viewer.status, viewer.text).toBe(201);
    const page = await session.open(linkOf(game.gameId, viewer.json.token));
    await page.locator('.spectator').waitFor();
    expect(await page.locator('form.entropy-prompt').count()).toBe(0);
  });
});
