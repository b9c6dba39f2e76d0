import { describe, expect, it } from 'vitest';
import type { Commit } from '../../domain/fairness/hashChain';
import { buildCommit } from '../../domain/game/buildCommit';
import { verifyExport } from '../../domain/verify/verifyExport';
import { exportOf, newKey, playGame, type Move, type TestKey } from '../domain/verify/signedExports';
import { cli, tempDir, writeJson } from './cliHarness';

const key = newKey('key-v');
const dir = tempDir();

/** Entropy (#2, #3), two rolls (#4, #5), a Void of #4 (#6), a Ruling (#7), the seal (#8). */
const moves: Move[] = [
  { actor: 'player1', type: 'ContributeEntropy', payload: { entropy: 'alpha' } },
  { actor: 'player2', type: 'ContributeEntropy', payload: { entropy: 'bravo' } },
  { actor: 'player1', type: 'Roll', payload: { dice: '2d6', purpose: 'assault on the ridge' } },
  { actor: 'player2', type: 'Roll', payload: { rolls: [{ dice: '1d6', purpose: 'morale' }, { dice: '1d10', purpose: 'casualties' }] } },
  { actor: 'organizer', type: 'Void', payload: { seq: 4, reason: 'rolled before the assault was declared' } },
  { actor: 'organizer', type: 'Ruling', payload: { text: 'The assault is rolled again next turn.', concerning: [4, 6] } },
  { actor: 'organizer', type: 'Seal', payload: {} },
];

/**
 * The game with commit `at` changed, every commit from it hashed and signed again with the
 * server's own key: what a server that doctored its record could publish.
 */
function doctored(signer: TestKey, at: number, change: (commit: Commit) => Partial<Commit>) {
  const game = playGame({ moves, keyFor: () => signer });
  let prevHash = '0'.repeat(64);
  const commits = game.commits.map((commit) => {
    const c = commit.seq === at ? { ...commit, ...change(commit) } : commit;
    const next = buildCommit(
      { gameId: c.gameId, seq: c.seq, prevHash, commandId: c.commandId, actor: c.actor, viaOrganizer: c.as === 'organizer', command: c.command, events: c.events, dice: c.dice, recordedAt: c.recordedAt, kid: c.kid },
      signer.sign,
    );
    prevHash = next.hash;
    return next;
  });
  return exportOf({ ...game, commits }, { keys: [signer] });
}

describe('arbiter verify: a game with a Void and a Ruling', () => {
  it('replays both, and lists the voided commit and the ruling in the report', async () => {
    const file = writeJson(dir, 'voided.json', exportOf(playGame({ moves, keyFor: () => key }), { keys: [key] }));
    const run = await cli(['verify', file, '--trust', key.fingerprint]);
    expect(run.code).toBe(0);
    expect(run.lines).toContain('  ✓ rules: every command replayed through the dice ruleset gives the recorded events (8 commits)');
    expect(run.lines).toContain('    #4 voided by #6: "rolled before the assault was declared"');
    expect(run.lines).toContain('    ruling #7: "The assault is rolled again next turn." concerning #4, #6');
    const json = JSON.parse((await cli(['verify', file, '--trust', key.fingerprint, '--json'])).stdout);
    expect(json.voided).toEqual([{ seq: 4, by: 6, reason: 'rolled before the assault was declared' }]);
    expect(json.rulings).toEqual([{ seq: 7, text: 'The assault is rolled again next turn.', concerning: [4, 6] }]);
  });

  it.each([
    ['a Void whose event names another commit than its command', (c: Commit) => ({ events: [{ type: 'CommitVoided', data: { seq: 5, reason: String(c.events[0].data.reason) } }] }), /the recorded events differ/],
    ['a Void sent by a side', () => ({ actor: 'player1' }), /the rules refuse this command: The player1 side may not send Void/],
    [
      'a Void of a commit no Void may take back (entropy)',
      () => ({ command: { type: 'Void', payload: { seq: 2, reason: 'x' } }, events: [{ type: 'CommitVoided', data: { seq: 2, reason: 'x' } }] }),
      /the rules refuse this command: #2 is not a move the rules decided/,
    ],
  ])('fails %s, naming the commit, though every hash and signature is the server\'s', async (_name, change, reason) => {
    const bundle = doctored(key, 6, change);
    const report = verifyExport(bundle, { trusted: [key.fingerprint] });
    expect(report.exitCode).toBe(1);
    expect(report.failures).toEqual([{ seq: 6, check: 'rules', reason: expect.stringMatching(reason) }]);
    const run = await cli(['verify', writeJson(dir, 'doctored.json', bundle), '--trust', key.fingerprint]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^FAILED at seq 6 \(rules\): /m);
    // A Void the rules refused is no Void: the report lists none.
    expect(report.voided).toBeUndefined();
  });
});
