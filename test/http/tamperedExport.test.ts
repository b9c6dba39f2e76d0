import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBundle } from '../../domain/verify/verifyBundle';
import type { LocalService } from '../../functions/local/localService';
import { startTestServer, type TestClient } from '../support/httpClient';

let local: LocalService;
let exported: string;
beforeAll(async () => {
  let client: TestClient;
  ({ local, client } = await startTestServer());
  const game = await client.createGame({ ruleset: 'dice', title: 'tamper' });
  await client.command(game.gameId, game.tokens.players.player1, { commandId: 'e', type: 'ContributeEntropy', payload: { entropy: 'é ✓ 😀' } });
  for (let i = 0; i < 6; i++) {
    await client.command(game.gameId, game.tokens.players.player2, { commandId: `r${i}`, type: 'Roll', payload: { dice: '2d6+1d20-1', purpose: `fire ${i}` } });
  }
  await client.command(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
  exported = (await client.get(`/games/${game.gameId}/export`, game.tokens.organizer)).text;
});
afterAll(async () => {
  await local?.close();
});

/** A different character of the same kind, so that the JSON still parses. */
function flip(ch: string): string {
  if (/[0-8]/.test(ch)) return String(Number(ch) + 1);
  if (ch === '9') return '0';
  if (/[a-yA-Y]/.test(ch)) return String.fromCharCode(ch.charCodeAt(0) + 1);
  if (ch === 'z') return 'a';
  if (ch === 'Z') return 'A';
  return ch;
}

describe('a flipped byte anywhere in a commit', () => {
  it('is reported by verification at that commit\'s seq', () => {
    expect(verifyBundle(JSON.parse(exported)).ok).toBe(true);
    const bundle = JSON.parse(exported);
    // Where each commit's text lies inside the export.
    const regions = bundle.commits.map((commit: unknown) => {
      const text = JSON.stringify(commit);
      const start = exported.indexOf(text);
      expect(start).toBeGreaterThan(0);
      return { start, end: start + text.length };
    });
    let checked = 0;
    regions.forEach(({ start, end }: { start: number; end: number }, index: number) => {
      for (let at = start; at < end; at++) {
        const ch = exported[at];
        if (flip(ch) === ch) continue;
        const tampered = exported.slice(0, at) + flip(ch) + exported.slice(at + 1);
        let parsed;
        try {
          parsed = JSON.parse(tampered);
        } catch {
          continue;
        }
        const report = verifyBundle(parsed);
        expect(report.ok, `flip at ${at} in commit ${index + 1} went unnoticed`).toBe(false);
        expect(report.failures[0].seq, `flip at ${at}: ${JSON.stringify(report.failures[0])}`).toBe(index + 1);
        checked += 1;
      }
    });
    expect(checked).toBeGreaterThan(3000);
  });

  it('reports a changed seed or commitment', () => {
    const seedFlipped = JSON.parse(exported);
    seedFlipped.serverSeed = seedFlipped.serverSeed.replace(/^./, (c: string) => (c === '0' ? '1' : '0'));
    expect(verifyBundle(seedFlipped).failures[0].check).toBe('serverSeed');
    const commitmentFlipped = JSON.parse(exported);
    commitmentFlipped.commitment = commitmentFlipped.commitment.replace(/^./, (c: string) => (c === '0' ? '1' : '0'));
    expect(verifyBundle(commitmentFlipped).failures[0]).toMatchObject({ seq: 1, check: 'commitment' });
  });

  it('reports a dropped or reordered commit', () => {
    const dropped = JSON.parse(exported);
    dropped.commits.splice(3, 1);
    expect(verifyBundle(dropped).failures[0].seq).toBe(4);
    const swapped = JSON.parse(exported);
    [swapped.commits[4], swapped.commits[5]] = [swapped.commits[5], swapped.commits[4]];
    expect(verifyBundle(swapped).failures[0].seq).toBe(5);
  });
});
