import { beforeAll, describe, expect, it } from 'vitest';
import type { Commit } from '../../../domain/fairness/hashChain';
import { buildCommit } from '../../../domain/game/buildCommit';
import { verifyBundle, type ExportBundle } from '../../../domain/verify/verifyBundle';
import { signerFromKey } from '../../../functions/application/signer';
import { memoryService } from '../../support/memoryService';

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
  const signer = signerFromKey(key);
  resign = (bundle) => {
    let prevHash = '0'.repeat(64);
    const commits = bundle.commits.map((c: Commit) => {
      const { hash: _h, signature: _s, as, ...rest } = c;
      const commit = buildCommit({ ...rest, prevHash, viaOrganizer: as === 'organizer' }, signer.sign);
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
