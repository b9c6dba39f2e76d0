import { beforeAll, describe, expect, it } from 'vitest';
import type { Commit } from '../../../domain/fairness/hashChain';
import { buildCommit } from '../../../domain/game/buildCommit';
import { verifyBundle, type ExportBundle } from '../../../domain/verify/verifyBundle';
import { signWith } from '../../../functions/application/signer';
import { memoryService } from '../../support/memoryService';
import { copyOf, forged, honestExport, newKey } from './signedExports';

let honest: ExportBundle;
let resign: (bundle: ExportBundle) => ExportBundle;

beforeAll(async () => {
  const { service, key } = memoryService('verify');
  const game = await service.createGame({ ruleset: 'dice' });
  const p1 = game.tokens.players.player1;
  await service.submit(game.gameId, p1, { commandId: 'e', type: 'ContributeEntropy', payload: { entropy: 'x' } });
  for (let i = 0; i < 5; i++) await service.submit(game.gameId, p1, { commandId: `r${i}`, type: 'Roll', payload: { dice: '3d6', purpose: `r${i}` } });
  await service.submit(game.gameId, game.tokens.organizer, { commandId: 's', type: 'Seal', payload: {} });
  honest = await service.exportBundle(game.gameId, p1);
  // What a dishonest server holding the real key could do: rewrite, then re-hash and re-sign the chain.
  const sign = signWith(key);
  resign = (bundle) => {
    let prevHash = '0'.repeat(64);
    const commits = bundle.commits.map((c: Commit) => {
      const { hash: _h, signature: _s, as, ...rest } = c;
      const commit = buildCommit({ ...rest, prevHash, viaOrganizer: as === 'organizer' }, sign);
      prevHash = commit.hash;
      return commit;
    });
    return { ...bundle, commits };
  };
});

const copy = (): ExportBundle => JSON.parse(JSON.stringify(honest));

describe('verifyBundle', () => {
  it('passes an honest sealed game, counting its commits and dice', () => {
    expect(verifyBundle(honest)).toEqual({ ok: true, checkedCommits: 8, checkedDice: 15, sealed: true, failures: [] });
    expect(verifyBundle(resign(copy())).ok).toBe(true);
  });

  it('catches a re-signed log whose total does not add up (rules replay)', () => {
    const forged = copy();
    (forged.commits[4].events[0].data as { total: number }).total += 1;
    const report = verifyBundle(resign(forged));
    expect(report.failures).toEqual([{ seq: 5, check: 'rules', reason: 'the recorded events differ from what the rules produce' }]);
  });

  it('catches re-signed dice the seed does not give', () => {
    const forged = copy();
    const commit = forged.commits[3];
    const die = commit.dice[0];
    die.value = (die.value % 6) + 1;
    (commit.events[0].data as { rolls: typeof commit.dice }).rolls[0].value = die.value;
    (commit.events[0].data as { total: number }).total = commit.dice.reduce((sum, d) => sum + d.value, 0);
    const report = verifyBundle(resign(forged));
    expect(report.failures[0]).toMatchObject({ seq: 4, check: 'dice' });
  });

  it('catches a re-signed log that adds entropy after a die', () => {
    const forged = copy();
    const late = { ...forged.commits[1], commandId: 'late' };
    forged.commits.splice(4, 0, late);
    forged.commits.forEach((c, i) => (c.seq = i + 1));
    const report = verifyBundle(resign(forged));
    expect(report.ok).toBe(false);
    expect(report.failures[0].seq).toBe(5);
  });

  it('catches a command the actor could never send', () => {
    const forged = copy();
    forged.commits[7].actor = 'player1';
    const report = verifyBundle(resign(forged));
    expect(report.failures).toEqual([{ seq: 8, check: 'rules', reason: 'the rules refuse this command: The player1 side may not send Seal.' }]);
  });

  it('checks the chain of an unsealed game but not its dice', () => {
    const open = copy();
    open.commits.pop();
    delete open.serverSeed;
    expect(verifyBundle(open)).toEqual({ ok: true, checkedCommits: 7, checkedDice: 0, sealed: false, failures: [] });
  });

  it('reports anything that is not a bundle without throwing', () => {
    for (const junk of [null, [], {}, { commits: [] }, { ...copy(), commits: [null] }]) {
      const report = verifyBundle(junk as unknown as ExportBundle);
      expect(report.ok).toBe(false);
      expect(report.failures[0].check).toBe('structure');
    }
  });
});

describe('verifyBundle on exports a hostile file could hold', () => {
  const key = newKey('k');
  const honestGame = honestExport(key);

  it('refuses an export whose ruleset is not the one the game was created with', () => {
    const renamed = copyOf(honestGame);
    renamed.ruleset = 'france44';
    expect(verifyBundle(renamed).failures).toEqual([
      { seq: 1, check: 'ruleset', reason: 'the export names the ruleset "france44", but the game was created with "dice"' },
    ]);
  });

  it('labels dice and rules failures by the commit\'s position, not by the seq it claims', () => {
    const lying = copyOf(honestGame);
    const commit = lying.commits[4];
    commit.seq = 99;
    (commit.events[0].data as { total: number }).total += 1;
    const report = verifyBundle(forged(lying, key));
    expect(report.failures.map((f) => [f.seq, f.check])).toEqual([
      [5, 'sequence'],
      [5, 'rules'],
    ]);
  });

  it('reports a lone surrogate in an event instead of throwing', () => {
    const hostile = copyOf(honestGame);
    (hostile.commits[1].events[0].data as { entropy: string }).entropy = 'alpha\ud800';
    let report: ReturnType<typeof verifyBundle> | undefined;
    expect(() => (report = verifyBundle(hostile))).not.toThrow();
    expect(report!.ok).toBe(false);
    expect(report!.failures[0]).toMatchObject({ seq: 2, check: 'hash' });
  });

  it('reports members of the wrong type instead of throwing', () => {
    const hostile = copyOf(honestGame) as unknown as { commits: Record<string, unknown>[] };
    hostile.commits[3].seq = Object.create(null);
    hostile.commits[4].gameId = Object.create(null);
    hostile.commits[5].kid = Object.create(null);
    const report = verifyBundle(hostile as never);
    expect(report.failures.slice(0, 3)).toEqual([
      { seq: 4, check: 'structure', reason: 'seq: Invalid input: expected number, received object' },
      { seq: 4, check: 'sequence', reason: 'expected seq 4, found an object' },
      { seq: 4, check: 'hash', reason: 'the record does not hash to its "hash"' },
    ]);
  });
});
