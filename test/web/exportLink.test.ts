import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, createGame, linkOf, startSession, type Session } from './browserSession';

// Every export takes the link path here (inline limit 0), as a large one does on any server.
let session: Session;
let link: string;
let gameId: string;
let player: string;

beforeAll(async () => {
  session = await startSession({ exportInlineMaxBytes: 0 });
  const game = await createGame(session.service, { ruleset: 'dice', title: 'Exported by link' });
  ({ gameId } = game);
  player = game.tokens.players.player1;
  for (let i = 1; i <= 3; i++) await callApi(session.service, 'POST', `/games/${gameId}/commands`, player, { commandId: `r${i}`, type: 'Roll', payload: { dice: '2d6', purpose: `volley ${i}` } });
  await callApi(session.service, 'POST', `/games/${gameId}/commands`, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
  link = linkOf(gameId, player);
});
afterAll(async () => {
  await session?.close();
});

describe('the verify page with an export answered by a link (303)', () => {
  it('follows the redirect to the link on the same origin and verifies the download', async () => {
    const direct = await fetch(new URL(`/games/${gameId}/export`, session.service.url), { headers: { authorization: `Bearer ${player}` }, redirect: 'manual' });
    expect(direct.status).toBe(303);
    const timeline = await session.open(link);
    await timeline.locator('tr[data-seq="5"]').waitFor();
    const fetched: string[] = [];
    timeline.on('response', (r) => fetched.push(`${r.status()} ${new URL(r.url()).pathname}`));
    await timeline.getByRole('link', { name: 'Verify this game in your browser' }).click();
    await timeline.locator('.verdict').waitFor();
    expect(await timeline.locator('.verdict').getAttribute('data-exit-code')).toBe('0');
    expect(fetched).toContain(`303 /games/${gameId}/export`);
    expect(fetched.some((f) => f.startsWith(`200 /exports/games/${gameId}/`))).toBe(true);
    expect(session.errors.get(timeline)).toEqual([]);
  });
});
