import { describe, expect, it } from 'vitest';
import type { Commit } from '../../../domain/fairness/hashChain';
import { countsPublicly, gameStats, isSealed, tallyDice } from '../../../domain/stats/gameStats';
import { publicStats } from '../../../domain/stats/publicStats';
import { gameStatsLines, publicStatsLines } from '../../../domain/stats/statsText';
import { buildBeaconGame } from '../../support/beaconGame';

const commit = (seq: number, actor: string, dice: [number, number][], type = 'Roll', payload: unknown = {}, events: string[] = []): Commit =>
  ({
    gameId: 'g-1',
    seq,
    commandId: `c${seq}`,
    actor,
    command: { type, payload },
    events: events.map((t) => ({ type: t, data: {} })),
    dice: dice.map(([sides, value]) => ({ sides, value })),
    recordedAt: '2026-11-22T10:00:00.000Z',
    kid: 'k',
    prevHash: '',
    hash: '',
    signature: '',
  }) as Commit;

const created = (payload: unknown = { ruleset: 'dice' }) => commit(1, 'organizer', [], 'CreateGame', payload, ['GameCreated']);

describe("a game's dice statistics", () => {
  it('counts each face by die size and by the role that sent the command', () => {
    const commits = [created(), commit(2, 'player1', [[6, 1], [6, 6], [20, 20]]), commit(3, 'player2', [[6, 6]]), commit(4, 'organizer', [], 'Seal', {}, ['GameSealed'])];
    const tally = tallyDice(commits);
    expect([...tally.keys()]).toEqual([6, 20]);
    expect(tally.get(6)!.get('player1')).toEqual([1, 0, 0, 0, 0, 1]);
    expect(tally.get(6)!.get('player2')).toEqual([0, 0, 0, 0, 0, 1]);
    expect(tally.get(20)!.get('player1')![19]).toBe(1);
    const stats = gameStats('g-1', commits);
    expect(stats.dice.map((d) => d.sides)).toEqual([6, 20]);
    expect(stats.dice[0].all.faces.map((f) => f.count)).toEqual([1, 0, 0, 0, 0, 2]);
    expect(stats.dice[0].byRole.map((r) => [r.role, r.figures.rolls])).toEqual([
      ['player1', 2],
      ['player2', 1],
    ]);
    expect(stats.dice[0].all.words).toMatch(/^too few dice to tell: 3 rolls of d6/);
    expect(isSealed(commits)).toBe(true);
    expect(isSealed(commits.slice(0, 3))).toBe(false);
  });

  it("counts a beacon game's revealed dice for the side that rolled, not the server that revealed them", () => {
    const { bundle } = buildBeaconGame();
    const roles = gameStats(bundle.gameId, bundle.commits).dice.flatMap((d) => d.byRole.map((r) => r.role));
    expect(new Set(roles)).toEqual(new Set(['player1', 'player2']));
    // player1 rolled 3d6 and 2d6+1d10, player2 1d20 and 1d6 (test/support/beaconGame.ts).
    const d6 = gameStats(bundle.gameId, bundle.commits).dice.find((d) => d.sides === 6)!;
    expect(d6.byRole.map((r) => [r.role, r.figures.rolls])).toEqual([
      ['player1', 5],
      ['player2', 1],
    ]);
  });

  it('keeps role names players chose as data, never as object keys', () => {
    const stats = gameStats('g-1', [created(), commit(2, '__proto__', [[6, 3]]), commit(3, 'constructor', [[6, 4]])]);
    expect(stats.dice[0].byRole.map((r) => r.role)).toEqual(['__proto__', 'constructor']);
    const lines = gameStatsLines(stats).join('\n');
    expect(lines).toContain('d6, "__proto__": 1 rolls');
  });

  it('refuses a die that is not a die (an edited export) naming its commit', () => {
    expect(() => tallyDice([created(), commit(2, 'p', [[6, 7]])])).toThrow(/commit 2 lists a die/);
    expect(() => tallyDice([created(), commit(2, 'p', [[1_000_000, 1]])])).toThrow(/commit 2/);
  });

  it('counts a game publicly unless its creation said "publicStats": false', () => {
    expect(countsPublicly([created({ ruleset: 'dice' })])).toBe(true);
    expect(countsPublicly([created({ ruleset: 'dice', publicStats: true })])).toBe(true);
    expect(countsPublicly([created({ ruleset: 'dice', publicStats: false })])).toBe(false);
    expect(countsPublicly([])).toBe(false);
  });
});

describe('the public statistics', () => {
  it('are the same figures over many games, smallest die first', () => {
    const stats = publicStats([
      { sides: 20, counts: new Array(20).fill(1), games: 1 },
      { sides: 6, counts: [15, 5, 10, 10, 12, 8], games: 3 },
    ]);
    expect(stats.dice.map((d) => [d.sides, d.games])).toEqual([
      [6, 3],
      [20, 1],
    ]);
    expect(stats.dice[0].figures.pValue).toBeCloseTo(0.3261688136935726, 12);
    expect(stats.dice[0].figures.words).toBe('nothing unusual: about 1 sample in 3 looks at least this uneven by chance');
    const lines = publicStatsLines(stats);
    expect(lines[0]).toBe('d6 over 3 sealed games: 60 rolls; χ² = 5.80, df = 5, p = 0.3262');
    expect(publicStatsLines({ dice: [] })).toEqual(['no sealed games counted yet']);
    // A face is marked off only when there are rolls enough to judge.
    const uneven = publicStatsLines(publicStats([{ sides: 2, counts: [30, 10], games: 1 }]));
    expect(uneven.filter((line) => line.endsWith('(fair share outside the 95% range)'))).toHaveLength(2);
    const few = publicStatsLines(publicStats([{ sides: 20, counts: [1, ...new Array(19).fill(0)], games: 1 }]));
    expect(few.some((line) => line.includes('outside'))).toBe(false);
  });
});
