import { describe, expect, it } from 'vitest';
import { QUICKNET, roundAtIso, roundTimeMs } from '../../domain/beacon/chain';
import type { Commit } from '../../domain/fairness/hashChain';
import { buildTournamentHead } from '../../domain/trust/tournamentHead';
import { publishedKey } from '../../domain/trust/publishedKey';
import type { ExportBundle } from '../../domain/verify/exportBundle';
import { VerifierReportSchema, type VerifierReport } from '../../domain/verify/verifierReport';
import { publicJwkOf, signWith, type StoredSigningKey } from '../../functions/application/signer';
import { buildBeaconGame } from '../support/beaconGame';
import { QUICKNET_BEACONS } from '../domain/beacon/vector';
import { run } from '../support/runCli';
import { cli, tempDir, writeJson } from './cliHarness';
import { resigned, TEST_CHAIN, testChainGame } from './beaconExports';
import { testBeaconChain } from '../support/testBeaconChain';

const dir = tempDir();
const honest = buildBeaconGame();
const { key, fingerprint } = honest;
const signatureOf = (round: number) => QUICKNET_BEACONS.find((b) => b.round === round)!.signature;

async function verify(bundle: ExportBundle, name: string, ...extra: string[]) {
  const run = await cli(['verify', writeJson(dir, name, bundle), '--trust', fingerprint, '--json', ...extra]);
  const report = JSON.parse(run.stdout) as VerifierReport;
  expect(VerifierReportSchema.parse(report)).toEqual(report);
  return { code: run.code, report, stderr: run.stderr };
}

const failuresOf = (report: VerifierReport) => report.failures.map(({ seq, check }) => `${seq} ${check}`);
const reasonsOf = (report: VerifierReport, check: string) => report.failures.filter((f) => f.check === check).map((f) => `${f.seq}: ${f.reason}`);

describe('arbiter verify on a beacon game (beacon.md §5), built on the real quicknet rounds of the spec', () => {
  it('exit 0: says how many drand rounds of quicknet were checked; --json adds beacons { checked, chain }', async () => {
    const file = writeJson(dir, 'beacon.json', honest.bundle);
    const run = await cli(['verify', file, '--trust', fingerprint]);
    expect(run.code, run.stdout).toBe(0);
    expect(run.lines).toContain(
      '  ✓ drand beacons: 4 rounds of quicknet checked (each named a round still in the future when its roll was accepted, and its BLS signature verifies)',
    );
    expect(run.lines).toContain("  ✓ dice: 8 dice re-derived from the seed and the players' entropy, with each roll's drand round");
    expect(run.lines.at(-1)).toBe('OK');
    const { code, report } = await verify(honest.bundle, 'beacon-json.json');
    expect(code).toBe(0);
    expect(report).toMatchObject({ ok: true, commits: 11, dice: 8, rulesReplayed: 11, sealed: true, failures: [], beacons: { checked: 4, chain: 'quicknet' } });
  });

  it('npx arbiter (bin/arbiter.mjs, in its own process) verifies it too: exit 0', async () => {
    const result = await run('node', ['bin/arbiter.mjs', 'verify', writeJson(dir, 'beacon-process.json', honest.bundle), '--trust', fingerprint]);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('  ✓ drand beacons: 4 rounds of quicknet checked');
  });

  it('exit 1 for a reveal whose beacon is another round\'s signature, the dice and events made from it: only the BLS check catches it', async () => {
    const beacons = QUICKNET_BEACONS.map((b) => (b.round === 1000 ? { round: 1000, signature: signatureOf(42) } : b));
    const { code, report } = await verify(buildBeaconGame({ key, beacons }).bundle, 'other-signature.json');
    expect(code).toBe(1);
    expect(report.failures).toEqual([{ seq: 6, check: 'beacon', reason: 'the drand signature of round 1000 does not verify under the public key of quicknet' }]);
  });

  it('exit 1 for a real signature under round + 1 (the spec\'s vector moved by one round)', async () => {
    const beacons = QUICKNET_BEACONS.map((b) => (b.round === 1000 ? { round: 1001, signature: b.signature } : b));
    const { code, report } = await verify(buildBeaconGame({ key, beacons }).bundle, 'round-plus-one.json');
    expect(code).toBe(1);
    expect(failuresOf(report)).toEqual(['6 beacon']);
    expect(report.beacons).toEqual({ checked: 4, chain: 'quicknet' });
  });

  it('catches a server that named a round already published when it accepted the roll', async () => {
    const late = resigned(honest.bundle, key, (commits) => {
      // The roll waiting for round 1000 recorded one second after round 1000 was out: the server could have read the beacon first.
      commits[4].recordedAt = new Date(roundTimeMs(QUICKNET, 1000) + 1000).toISOString();
    });
    const { code, report } = await verify(late, 'published-round.json');
    expect(code).toBe(1);
    expect(reasonsOf(report, 'beacon')).toEqual([
      `5: the pending roll names drand round 1000, but the first round at least one period after it was accepted ("${late.commits[4].recordedAt}") is 1002: round 1000 was already published when the roll was accepted, so its dice could be known in advance`,
    ]);
  });

  it('exit 1 for a reveal recorded before its round was published: the server could not have had the beacon', async () => {
    const early = resigned(honest.bundle, key, (commits) => {
      commits[5].recordedAt = new Date(roundTimeMs(QUICKNET, 1000) - 500).toISOString();
    });
    const { code, report } = await verify(early, 'early-reveal.json');
    expect(code).toBe(1);
    expect(report.failures).toEqual([
      {
        seq: 6,
        check: 'beacon',
        reason: `the reveal is recorded at "${early.commits[5].recordedAt}", before drand round 1000 was published (${roundAtIso(QUICKNET, 1000)}): the server could not have had it`,
      },
    ]);
  });

  it('exit 1 for a pending roll never revealed but followed by another commit', async () => {
    const dropped = resigned(honest.bundle, key, (commits) => [...commits.slice(0, 3), ...commits.slice(4)]);
    const { code, report } = await verify(dropped, 'dropped-reveal.json');
    expect(code).toBe(1);
    expect(reasonsOf(report, 'beacon')[0]).toBe(
      '4: commit 3 waits for drand round 42, but commit 4 is not its reveal: the server must reveal every pending roll before anything else',
    );
  });

  it('exit 1 for a reveal before its pending roll (out of order), and for a reveal with no pending roll', async () => {
    const swapped = resigned(honest.bundle, key, (commits) => [commits[0], commits[1], commits[3], commits[2], ...commits.slice(4)]);
    const outOfOrder = await verify(swapped, 'swapped.json');
    expect(outOfOrder.code).toBe(1);
    expect(reasonsOf(outOfOrder.report, 'beacon')[0]).toBe('3: a reveal of commit 3, but commit 2 is not a pending roll');
    const doubled = resigned(honest.bundle, key, (commits) => [...commits.slice(0, 4), { ...commits[3], commandId: 'beacon/3' }, ...commits.slice(4)]);
    const again = await verify(doubled, 'doubled-reveal.json');
    expect(again.code).toBe(1);
    expect(reasonsOf(again.report, 'beacon')[0]).toBe('5: a reveal of commit 3, but commit 4 is not a pending roll');
  });

  it('exit 1 for a reveal not sent by the server', async () => {
    const byPlayer = resigned(honest.bundle, key, (commits) => {
      commits[3].actor = 'player1';
    });
    const { code, report } = await verify(byPlayer, 'player-reveal.json');
    expect(code).toBe(1);
    expect(reasonsOf(report, 'beacon')).toEqual(['4: a reveal is sent by the server alone, with commandId "beacon/3"']);
  });

  it('exit 1 for a die of a reveal changed, or a die drawn by a commit that is not a reveal', async () => {
    const changed = resigned(honest.bundle, key, (commits) => {
      commits[3].dice[0].value = (commits[3].dice[0].value % 6) + 1;
    });
    const die = await verify(changed, 'changed-die.json');
    expect(die.code).toBe(1);
    expect(failuresOf(die.report)).toContain('4 dice');
    const seedRolled = resigned(honest.bundle, key, (commits) => [commits[0], commits[1], { ...commits[2], events: commits[3].events, dice: commits[3].dice }, commits.at(-1)!]);
    const { code, report } = await verify(seedRolled, 'not-a-reveal.json');
    expect(code).toBe(1);
    expect(reasonsOf(report, 'dice')).toEqual(["3: in a beacon game only the server's reveal of a pending roll draws dice"]);
    expect(reasonsOf(report, 'rules')).toEqual(["3: in a beacon game only the server's reveal of a pending roll draws dice"]);
  });

  it('exit 1 for entropy added after the first pending roll, as after the first die', async () => {
    const roll = { actor: 'player1', type: 'Roll', payload: { dice: '1d6', purpose: 'fire' } };
    const game = buildBeaconGame({ key, commands: [roll, roll] });
    const entropy: Commit = {
      ...game.bundle.commits[4],
      commandId: 'late-entropy',
      actor: 'player2',
      command: { type: 'ContributeEntropy', payload: { entropy: 'after the roll' } },
      events: [{ type: 'EntropyContributed', data: { by: 'player2', entropy: 'after the roll' } }],
      dice: [],
    };
    const withEntropy = resigned(game.bundle, key, (commits) => [...commits.slice(0, 5), entropy, ...commits.slice(5)]);
    const { code, report } = await verify(withEntropy, 'late-entropy.json');
    expect(code).toBe(1);
    expect(reasonsOf(report, 'entropy')).toEqual(['6: entropy was added after the first roll']);
    // Between the pending roll and its reveal, before any die: locked all the same (the game key is the one of the pending roll).
    const beforeTheDie = resigned(game.bundle, key, (commits) => [...commits.slice(0, 2), entropy, ...commits.slice(2)]);
    const early = await verify(beforeTheDie, 'entropy-while-pending.json');
    expect(early.code).toBe(1);
    expect(reasonsOf(early.report, 'entropy')).toEqual(['3: entropy was added after the first roll']);
  });

  it('accepts an unsealed export that ends with a pending roll (--allow-unsealed)', async () => {
    const open = resigned(buildBeaconGame({ key, sealed: false }).bundle, key, (commits) => commits.slice(0, 9));
    expect(open.commits.at(-1)!.events[0].type).toBe('BeaconRollPending');
    const { code, report } = await verify(open, 'open-pending.json', '--allow-unsealed');
    expect(code, JSON.stringify(report.failures)).toBe(0);
    expect(report.beacons).toEqual({ checked: 3, chain: 'quicknet' });
  });
});

describe('arbiter verify --trust-beacon: chains this verifier does not know', () => {
  const testGame = testChainGame();
  const testFile = writeJson(dir, 'test-chain.json', testGame.bundle);
  const trust = ['--trust', testGame.fingerprint];

  it('a game on a test chain is exit 1, saying how to pin it; exit 0 once its hash is pinned', async () => {
    const unpinned = await cli(['verify', testFile, ...trust]);
    expect(unpinned.code).toBe(1);
    expect(unpinned.stdout).toContain(
      `FAILED at seq 1 (beacon): the game uses the drand chain "arbiter-test" (${TEST_CHAIN.chain.chainHash}), which this verifier does not know: ` +
        `if you trust it (your own server's chain), pin it with --trust-beacon ${TEST_CHAIN.chain.chainHash}:<its public key, as its operator publishes it>`,
    );
    const pinned = await cli(['verify', testFile, ...trust, '--trust-beacon', TEST_CHAIN.chain.chainHash]);
    expect(pinned.code, pinned.stdout).toBe(0);
    expect(pinned.stdout).toContain('  ✓ drand beacons: 4 rounds of arbiter-test checked');
    const json = await cli(['verify', testFile, ...trust, '--trust-beacon', TEST_CHAIN.chain.chainHash.toUpperCase(), '--json']);
    expect(JSON.parse(json.stdout)).toMatchObject({ exitCode: 0, beacons: { checked: 4, chain: 'arbiter-test' } });
  });

  it('refuses a game that records quicknet\'s hash with another key, even with that hash pinned', async () => {
    const impostor = { ...QUICKNET, publicKey: TEST_CHAIN.chain.publicKey };
    const game = testChainGame(impostor, TEST_CHAIN.sign, 'g-impostor');
    const run = await cli(['verify', writeJson(dir, 'impostor.json', game.bundle), '--trust', game.fingerprint, '--trust-beacon', QUICKNET.chainHash, '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).failures).toEqual([{ seq: 1, check: 'beacon', reason: 'GameCreated records a drand chain that claims to be quicknet (by its name or hash) but differs from it in publicKey' }]);
  });

  it('binds the key with HASH:PUBLICKEY: a file naming the pinned hash with a key of its own is exit 1 (review: an operator signing its own rounds)', async () => {
    const { chainHash, publicKey } = TEST_CHAIN.chain;
    const bound = await cli(['verify', testFile, ...trust, '--trust-beacon', `${chainHash}:${publicKey}`]);
    expect(bound.code, bound.stdout).toBe(0);
    const other = testBeaconChain({ genesis: TEST_CHAIN.chain.genesis, period: 1, seed: 'the operator’s own key' });
    const forged = testChainGame({ ...TEST_CHAIN.chain, publicKey: other.chain.publicKey }, other.sign, 'g-own-key');
    const run = await cli(['verify', writeJson(dir, 'own-key.json', forged.bundle), '--trust', forged.fingerprint, '--trust-beacon', `${chainHash}:${publicKey}`, '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).failures).toEqual([
      { seq: 1, check: 'beacon', reason: `the game's drand chain "arbiter-test" has the hash you pinned but another public key than the one you pinned with it` },
    ]);
  });

  it('--trust-beacon takes 64 hex digits, or HASH:PUBLICKEY, else exit 2 naming the option', async () => {
    const run = await cli(['verify', testFile, ...trust, '--trust-beacon', 'quicknet']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'arbiter verify: --trust-beacon takes a drand chain hash (64 hex digits), or HASH:PUBLICKEY (the chain\'s 96-byte public key in hex), not "quicknet" (npx arbiter --help shows how)',
    );
  });
});

describe('beacon games in a tournament export and in stats', () => {
  const inTournament = (bundle: ExportBundle, signer: StoredSigningKey) =>
    resigned(bundle, signer, (commits) => {
      commits[0].events[0].data.tournamentId = 't-club';
    });
  const header = (games: ExportBundle[], signer: StoredSigningKey) => {
    const jwk = publicJwkOf(signer);
    return {
      format: 'arbiter-tournament-export/1',
      tournamentId: 't-club',
      name: 'Club round 1',
      exportedAt: '2026-11-23T09:00:00.000Z',
      games: games.length,
      tournamentHead: buildTournamentHead({ tournamentId: 't-club', games: games.map((b) => ({ gameId: b.gameId, head: b.head!.hash })), at: '2026-11-23T09:00:00.000Z', kid: jwk.kid }, signWith(signer)),
      keys: { keys: [publishedKey(jwk, 'current')] },
      keyLog: [],
    };
  };
  const tournamentFile = (name: string, games: ExportBundle[]) => writeJson(dir, name, [header(games, key), ...games].map((line) => `${JSON.stringify(line)}\n`).join(''));

  it('checks every beacon game of a tournament file, and counts their rounds', async () => {
    const games = [inTournament(honest.bundle, key), inTournament(buildBeaconGame({ key, gameId: 'g-beacon-2' }).bundle, key)];
    const run = await cli(['verify', tournamentFile('beacons.ndjson', games), '--trust', fingerprint]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.lines).toContain('✓ drand beacons: 2 beacon games, 8 rounds of quicknet checked');
  });

  it('fails the game of a tournament whose chain is not pinned, and passes it once pinned', async () => {
    const onTestChain = inTournament(buildBeaconGame({ key, chain: TEST_CHAIN.chain, gameId: 'g-test', beacons: [100, 200, 300, 400].map((round) => ({ round, signature: TEST_CHAIN.sign(round) })) }).bundle, key);
    const file = tournamentFile('test-chain.ndjson', [inTournament(honest.bundle, key), onTestChain]);
    const run = await cli(['verify', file, '--trust', fingerprint]);
    expect(run.code).toBe(1);
    expect(run.lines).toContain('✗ drand beacons: 2 beacon games, 8 rounds of quicknet, arbiter-test checked; 1 game failed a beacon check');
    const pinned = await cli(['verify', file, '--trust', fingerprint, '--trust-beacon', TEST_CHAIN.chain.chainHash]);
    expect(pinned.code, pinned.stdout).toBe(0);
  });

  it('stats verifies a beacon game first: figures with its chain known, exit 1 on an unpinned chain', async () => {
    const stats = await cli(['stats', writeJson(dir, 'stats-beacon.json', honest.bundle), '--trust', fingerprint, '--json']);
    expect(stats.code, stats.stderr).toBe(0);
    expect(JSON.parse(stats.stdout)).toMatchObject({ gameId: 'g-beacon' });
    const testGame = testChainGame();
    const unpinned = await cli(['stats', writeJson(dir, 'stats-test-chain.json', testGame.bundle), '--trust', testGame.fingerprint]);
    expect(unpinned.code).toBe(1);
    expect(unpinned.stderr).toContain('(commit 1, beacon: the game uses the drand chain "arbiter-test"');
    const pinned = await cli(['stats', writeJson(dir, 'stats-test-chain.json', testGame.bundle), '--trust', testGame.fingerprint, '--trust-beacon', TEST_CHAIN.chain.chainHash]);
    expect(pinned.code, pinned.stderr).toBe(0);
  });
});
