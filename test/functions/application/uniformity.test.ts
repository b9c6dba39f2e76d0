import { describe, expect, it } from 'vitest';
import { verifyBundle } from '../../../domain/verify/verifyBundle';
import { memoryService } from '../../support/memoryService';

/** Pearson's chi-square statistic of observed counts against equal expectation. */
function chiSquare(counts: number[]): number {
  const total = counts.reduce((a, b) => a + b, 0);
  const expected = total / counts.length;
  return counts.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0);
}

describe('60,000 d6 rolled through the service', () => {
  it('look uniform, face by face and pair by pair', async () => {
    const { service } = memoryService('uniformity');
    const game = await service.createGame({ ruleset: 'dice' });
    const token = game.tokens.players.player1;
    const values: number[] = [];
    for (let i = 0; i < 600; i++) {
      const { commit } = await service.submit(game.gameId, token, { commandId: `r${i}`, type: 'Roll', payload: { dice: '100d6', purpose: 'uniformity' } });
      for (const die of commit.dice) values.push(die.value);
    }
    expect(values).toHaveLength(60_000);

    const faces = [0, 0, 0, 0, 0, 0];
    for (const v of values) faces[v - 1] += 1;
    // 5 degrees of freedom: 20.52 is the 0.1% critical value.
    expect(chiSquare(faces)).toBeLessThan(20.52);
    for (const n of faces) expect(Math.abs(n - 10_000)).toBeLessThan(400);

    // Consecutive pairs: 35 degrees of freedom, 66.62 is the 0.1% critical value.
    const pairs = Array<number>(36).fill(0);
    for (let i = 0; i + 1 < values.length; i += 2) pairs[(values[i] - 1) * 6 + (values[i + 1] - 1)] += 1;
    expect(chiSquare(pairs)).toBeLessThan(66.62);

    // And every one of them is reproduced from the seed once the game is sealed.
    await service.submit(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    const report = verifyBundle(await service.exportBundle(game.gameId, token));
    expect(report).toMatchObject({ ok: true, checkedDice: 60_000 });
  });
});
