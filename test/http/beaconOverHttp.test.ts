/**
 * Beacon games end to end (issue 32): a real local server (real timers, the relay client with
 * its BLS check) against the loopback relay serving a test chain (its own BLS key, a 1 s
 * period), played over HTTP, exported, and verified by `npx arbiter verify` in its own process.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { beaconSignatureValid } from '../../domain/beacon/blsSignature';
import { senderCheck } from '../../domain/beacon/senderCheck';
import type { Commit } from '../../domain/fairness/hashChain';
import type { ExportBundle } from '../../domain/verify/exportBundle';
import type { VerifierReport } from '../../domain/verify/verifierReport';
import { BeaconRelay } from '../../functions/application/beaconRelay';
import { CommandPendingShape, ErrorShape, GameViewShape } from '../../functions/http/apiShapes';
import { loadKeyRing } from '../../functions/local/keyFiles';
import { startLocalService, type LocalService } from '../../functions/local/localService';
import { TestClient } from '../support/httpClient';
import { startLoopbackRelay, type LoopbackRelay } from '../support/loopbackRelay';
import { run } from '../support/runCli';
import { testBeaconChain } from '../support/testBeaconChain';
import { resigned } from '../verifier/beaconExports';

const test = testBeaconChain({ name: 'arbiter-test', period: 1 });
const { chainHash } = test.chain;
const roots: string[] = [];
const newRoot = () => {
  const root = mkdtempSync(join(tmpdir(), 'arbiter-b32-e2e-'));
  roots.push(root);
  return root;
};
let exportsWritten = 0;
const closers: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

interface Served {
  local: LocalService;
  client: TestClient;
  /** The key the server signs with, read from its data directory. */
  key: ReturnType<typeof loadKeyRing>['ring']['current'];
  fingerprint: string;
}

/** A local server on its own data directory, offering the test chain, fetching rounds from `relay` with the BLS check. */
async function serve(relay: LoopbackRelay, now?: () => string): Promise<Served> {
  const dataDir = join(newRoot(), 'data');
  const local = await startLocalService({
    dataDir,
    now,
    beaconChains: new Map([[test.chain.chain, test.chain]]),
    beaconSource: new BeaconRelay({ relays: [relay.url], check: beaconSignatureValid, timeoutMs: 2_000, retryDelayMs: 100 }),
    observer: { unexpected: (error) => console.error(`unexpected in test server: ${error.stack}`) },
  });
  closers.push(() => local.close());
  return { local, client: new TestClient(local.url), key: loadKeyRing(dataDir).ring.current, fingerprint: local.service.signer.fingerprint };
}

async function createBeaconGame(client: TestClient, ruleset: string) {
  const created = await client.post('/games', { ruleset, randomness: { beacon: test.chain.chain } });
  expect(created.status, created.text).toBe(201);
  return created.body as { gameId: string; tokens: { organizer: string; players: Record<string, string> } };
}

/** Sends a command that must draw no die: 201. */
async function committed(client: TestClient, gameId: string, token: string, commandId: string, type: string, payload: unknown = {}) {
  const reply = await client.command(gameId, token, { commandId, type, payload });
  expect(reply.status, `${type}: ${reply.text}`).toBe(201);
}

/** Sends a rolling command: 202 with the pending commit; then follows the game's events (long poll) until its reveal is there. */
async function rolled(client: TestClient, gameId: string, token: string, commandId: string, type: string, payload: unknown) {
  const reply = await client.command(gameId, token, { commandId, type, payload });
  expect(reply.status, `${type}: ${reply.text}`).toBe(202);
  const pending = CommandPendingShape.parse(reply.body);
  expect(pending.commit).toMatchObject({ commandId, dice: [], events: [{ type: 'BeaconRollPending', data: { round: pending.beacon.round } }] });
  expect(senderCheck({ round: pending.beacon.round, chain: test.chain, claimedRoundAt: pending.beacon.roundAt, receivedAtMs: Date.now() }).ok).toBe(true);
  const reveal = await revealOf(client, gameId, token, pending.commit.seq);
  return { pending, reveal };
}

async function revealOf(client: TestClient, gameId: string, token: string, seq: number, timeout = 15_000): Promise<Commit> {
  let reveal: Commit | undefined;
  await expect
    .poll(
      async () => {
        const next = await client.get(`/games/${gameId}/events?after=${seq}&wait=2`, token);
        reveal = (next.body?.commits as Commit[] | undefined)?.[0];
        return reveal?.commandId;
      },
      { timeout, interval: 50 },
    )
    .toBe(`beacon/${seq}`);
  return reveal!;
}

async function sealAndExport(client: TestClient, gameId: string, organizer: string): Promise<ExportBundle> {
  await committed(client, gameId, organizer, 'seal', 'Seal');
  const exported = await client.get(`/games/${gameId}/export`, organizer);
  expect(exported.status, exported.text).toBe(200);
  return JSON.parse(exported.text) as ExportBundle;
}

/** `npx arbiter verify FILE --trust <fp> [extra]`, in its own process, with its JSON report. */
async function verify(bundle: ExportBundle, fingerprint: string, ...extra: string[]) {
  const dir = newRoot();
  const file = join(dir, `export-${++exportsWritten}.json`);
  writeFileSync(file, JSON.stringify(bundle));
  const env = { ARBITER_TRUST_FILE: join(dir, 'trusted-keys.json') };
  const result = await run('node', ['bin/arbiter.mjs', 'verify', file, '--trust', fingerprint, ...extra], env);
  const json = await run('node', ['bin/arbiter.mjs', 'verify', file, '--trust', fingerprint, '--json', ...extra], env);
  expect(json.code).toBe(result.code);
  return { ...result, report: JSON.parse(json.stdout) as VerifierReport };
}

const pinned = ['--trust-beacon', chainHash];
const beaconFailures = (report: VerifierReport) => report.failures.filter((f) => f.check === 'beacon');

describe('beacon games over HTTP against a loopback relay serving a test chain', () => {
  let relay: LoopbackRelay;
  let server: Served;
  let diceGame: ExportBundle;

  beforeAll(async () => {
    relay = await startLoopbackRelay({ chains: [test] });
    closers.push(() => relay.close());
    server = await serve(relay);
  });

  it('a dice game: 202 pending, the reveal fetched from the relay, sealed, exported; arbiter verify exit 0 with the chain pinned, exit 1 naming it without', async () => {
    const { client } = server;
    const game = await createBeaconGame(client, 'dice');
    const { player1, player2 } = game.tokens.players;
    await committed(client, game.gameId, player1, 'e1', 'ContributeEntropy', { entropy: 'table 4' });
    const first = await rolled(client, game.gameId, player1, 'r1', 'Roll', { dice: '3d6', purpose: 'assault' });
    expect(first.reveal).toMatchObject({ actor: 'server', command: { type: 'RevealBeacon', payload: { pending: first.pending.commit.seq, round: first.pending.beacon.round, signature: test.sign(first.pending.beacon.round) } } });
    expect(first.reveal.dice).toHaveLength(3);
    expect(relay.count(`/${chainHash}/public/${first.pending.beacon.round}`)).toBeGreaterThanOrEqual(1);
    const second = await rolled(client, game.gameId, player2, 'r2', 'Roll', { dice: '1d20', purpose: 'reply' });
    expect(second.reveal.dice).toHaveLength(1);
    diceGame = await sealAndExport(client, game.gameId, game.tokens.organizer);
    expect(diceGame.commits.map((c) => c.commandId)).toEqual(['create', 'e1', 'r1', 'beacon/3', 'r2', 'beacon/5', 'seal']);

    const ok = await verify(diceGame, server.fingerprint, ...pinned);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain('  ✓ drand beacons: 2 rounds of arbiter-test checked');
    expect(ok.report).toMatchObject({ ok: true, beacons: { checked: 2, chain: 'arbiter-test' }, dice: 4 });

    const unpinned = await verify(diceGame, server.fingerprint);
    expect(unpinned.code).toBe(1);
    expect(unpinned.stdout).toContain(`the game uses the drand chain "arbiter-test" (${chainHash}), which this verifier does not know`);
  });

  it('a France 1944 combat: air power and the combat each pending then revealed, the export verified with the chain pinned', async () => {
    const { client } = server;
    const game = await createBeaconGame(client, 'france44');
    const { allied, german } = game.tokens.players;
    const unit = (unitId: string, hex: string, strength: number) => ({ unitId, hex, strength });
    await committed(client, game.gameId, game.tokens.organizer, 'e', 'ContributeEntropy', { entropy: 'tournament table 3' });
    await committed(client, game.gameId, game.tokens.organizer, 't1', 'StartTurn', { turn: 1, reactionPoints: { allied: 10, german: 6 } });
    await committed(client, game.gameId, german, 'hq-g', 'ActivateHQ', { hqId: '7' });
    await committed(client, game.gameId, allied, 'hq-a', 'ActivateHQ', { hqId: '1US' });
    await committed(client, game.gameId, german, 'react', 'BeginReactionSegment');
    await committed(client, game.gameId, german, 'react-end', 'EndReactionSegment');
    await committed(client, game.gameId, allied, 'inc', 'BeginAttackIncrement');
    await committed(client, game.gameId, allied, 'c1', 'DeclareCombat', {
      combatId: 'c1', kind: 'set-piece', attackers: [unit('1Inf', '2708', 4), unit('29Inf', '2709', 3), unit('2Arm', '2709', 3)], defenders: [unit('352', '2809', 7)],
      attackerMorale: 4, defenderMorale: 3, terrainMoraleModifiers: [1],
    });

    const air = await rolled(client, game.gameId, allied, 'air', 'RollAirPower', { combatId: 'c1', availability: 4 });
    expect(air.reveal.dice).toHaveLength(1);
    const combat = await rolled(client, game.gameId, allied, 'resolve', 'ResolveCombat', { combatId: 'c1' });
    expect(combat.reveal.events[0]).toMatchObject({ type: 'CombatResolved', data: { combatId: 'c1', odds: '10:7', die: combat.reveal.dice[0].value } });
    await committed(client, game.gameId, allied, 'inc-end', 'EndAttackIncrement');

    const bundle = await sealAndExport(client, game.gameId, game.tokens.organizer);
    const ok = await verify(bundle, server.fingerprint, ...pinned);
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    expect(ok.stdout).toContain('every command replayed through the france44 ruleset');
    expect(ok.report).toMatchObject({ ok: true, beacons: { checked: 2, chain: 'arbiter-test' } });
    const unpinned = await verify(bundle, server.fingerprint);
    expect(unpinned.code).toBe(1);
    expect(beaconFailures(unpinned.report)[0].reason).toContain(`pin it with --trust-beacon ${chainHash}`);
  });

  // On the dice game's export above (tests of a file run in order).
  describe("an export changed and re-signed with the server's own key, so that only the beacon check can catch it", () => {
    const revealIndex = (commits: Commit[]) => commits.findIndex((c) => c.command.type === 'RevealBeacon');
    const payloadOf = (commit: Commit) => commit.command.payload as { pending: number; round: number; signature: string };

    it("exit 1 for a reveal carrying another round's signature of the same chain (valid BLS, the wrong round)", async () => {
      const bundle = resigned(diceGame, server.key, (commits) => {
        const payload = payloadOf(commits[revealIndex(commits)]);
        payload.signature = test.sign(payload.round + 1);
      });
      const { code, report } = await verify(bundle, server.fingerprint, ...pinned);
      expect(code).toBe(1);
      expect(beaconFailures(report)).toContainEqual({ seq: 4, check: 'beacon', reason: expect.stringContaining('does not verify under the public key of arbiter-test') });
    });

    it('exit 1 for a reveal of another round than the one its pending commit named (that round\'s genuine beacon)', async () => {
      const bundle = resigned(diceGame, server.key, (commits) => {
        const payload = payloadOf(commits[revealIndex(commits)]);
        payload.round += 1;
        payload.signature = test.sign(payload.round);
      });
      const { code, report } = await verify(bundle, server.fingerprint, ...pinned);
      expect(code).toBe(1);
      expect(beaconFailures(report).map((f) => f.seq)).toContain(4);
    });

    it('exit 1 for the reveal stored before its pending commit', async () => {
      const bundle = resigned(diceGame, server.key, (commits) => {
        const i = revealIndex(commits);
        [commits[i - 1], commits[i]] = [commits[i], commits[i - 1]];
      });
      const { code, report } = await verify(bundle, server.fingerprint, ...pinned);
      expect(code).toBe(1);
      expect(beaconFailures(report)[0]).toMatchObject({ seq: 3, reason: expect.stringContaining('a reveal of commit 3') });
    });

    it('the same re-signing untouched verifies (exit 0): what fails above is the change alone', async () => {
      const { code, stdout } = await verify(resigned(diceGame, server.key, () => undefined), server.fingerprint, ...pinned);
      expect(code, stdout).toBe(0);
    });
  });
});

describe('a relay that is down, then up', () => {
  it('reveals late and loses nothing: the view says late, the game answers 409 meanwhile, then the reveal, a next roll, an export that verifies', async () => {
    // The relay and the server share a clock the test moves forward, so that "late" (15 s past the round) comes at once.
    let ahead = 0;
    const clock = () => Date.now() + ahead;
    const relay = await startLoopbackRelay({ chains: [test], now: clock });
    closers.push(() => relay.close());
    const server = await serve(relay, () => new Date(clock()).toISOString());
    const { client } = server;
    const game = await createBeaconGame(client, 'dice');
    const { player1, player2 } = game.tokens.players;

    await relay.down('refuse');
    const reply = await client.command(game.gameId, player1, { commandId: 'r1', type: 'Roll', payload: { dice: '2d6', purpose: 'while the relay is down' } });
    expect(reply.status, reply.text).toBe(202);
    const pending = CommandPendingShape.parse(reply.body);
    ahead += 20_000;

    const view = GameViewShape.parse((await client.get(`/games/${game.gameId}`, player1)).body);
    expect(view.beacon?.pending).toEqual({ seq: pending.commit.seq, round: pending.beacon.round, roundAt: pending.beacon.roundAt, late: true });
    const refused = await client.command(game.gameId, player2, { commandId: 'r2', type: 'Roll', payload: { dice: '1d6', purpose: 'meanwhile' } });
    expect(refused.status).toBe(409);
    expect(ErrorShape.parse(refused.body).error).toMatchObject({ code: 'beacon_pending', details: { round: pending.beacon.round } });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await client.get(`/games/${game.gameId}`, player1)).body.version).toBe(pending.commit.seq);
    // Reads go on: the game as it stands, ending with the roll that waits, exports and verifies unsealed.
    const stuck = await client.get(`/games/${game.gameId}/export`, player1);
    expect(stuck.status, stuck.text).toBe(200);
    const stuckBundle = JSON.parse(stuck.text) as ExportBundle;
    expect(stuckBundle.commits.at(-1)!.events[0].type).toBe('BeaconRollPending');
    const unsealed = await verify(stuckBundle, server.fingerprint, ...pinned, '--allow-unsealed');
    expect(unsealed.code, unsealed.stdout).toBe(0);

    await relay.up();
    const reveal = await revealOf(client, game.gameId, player1, pending.commit.seq, 30_000);
    expect(reveal).toMatchObject({ command: { payload: { round: pending.beacon.round, signature: test.sign(pending.beacon.round) } }, dice: [{ sides: 6 }, { sides: 6 }] });
    expect(Date.parse(reveal.recordedAt)).toBeGreaterThan(Date.parse(pending.beacon.roundAt) + 15_000);
    expect(GameViewShape.parse((await client.get(`/games/${game.gameId}`, player1)).body).beacon).toEqual({ chain: 'arbiter-test', chainHash });

    const next = await rolled(client, game.gameId, player2, 'r2', 'Roll', { dice: '1d6', purpose: 'after the relay came back' });
    expect(next.reveal.dice).toHaveLength(1);
    const bundle = await sealAndExport(client, game.gameId, game.tokens.organizer);
    expect(bundle.commits.map((c) => c.commandId)).toEqual(['create', 'r1', 'beacon/2', 'r2', 'beacon/4', 'seal']);
    const { code, stdout } = await verify(bundle, server.fingerprint, ...pinned);
    expect(code, stdout).toBe(0);
  });
});

describe('a server whose clock runs behind the relay\'s: it names a round already published', () => {
  it("is caught by the sender's check at once, and by the verifier once the commits carry the true times", async () => {
    const behindMs = 10_000;
    const relay = await startLoopbackRelay({ chains: [test] });
    closers.push(() => relay.close());
    const server = await serve(relay, () => new Date(Date.now() - behindMs).toISOString());
    const { client } = server;
    const game = await createBeaconGame(client, 'dice');
    const { player1 } = game.tokens.players;

    const reply = await client.command(game.gameId, player1, { commandId: 'r1', type: 'Roll', payload: { dice: '2d6', purpose: 'a round the server could read' } });
    const receivedAt = Date.now();
    expect(reply.status, reply.text).toBe(202);
    const { beacon, commit } = CommandPendingShape.parse(reply.body);
    // The round it waits for is already out at the relay: whoever ran this server could have read its dice first.
    expect((await fetch(`${relay.url}/${chainHash}/public/${beacon.round}`)).status).toBe(200);
    const check = senderCheck({ round: commit.events[0].data.round as number, chain: test.chain, claimedRoundAt: beacon.roundAt, receivedAtMs: receivedAt });
    expect(check.ok).toBe(false);
    expect(check.text).toMatch(new RegExp(`^⚠ round ${beacon.round} was already published \\d+ s before the server's answer reached you`));

    await revealOf(client, game.gameId, player1, commit.seq);
    const bundle = await sealAndExport(client, game.gameId, game.tokens.organizer);
    // recordedAt is the server's word: as it signed them, the times agree with the round it named, so the file alone cannot tell.
    const asSigned = await verify(bundle, server.fingerprint, ...pinned);
    expect(asSigned.code, asSigned.stdout).toBe(0);
    // The same commits with the true times (the relay's clock) are caught by the beacon check.
    const trueTimes = resigned(bundle, server.key, (commits) => {
      for (const c of commits) c.recordedAt = new Date(Date.parse(c.recordedAt) + behindMs).toISOString();
    });
    const caught = await verify(trueTimes, server.fingerprint, ...pinned);
    expect(caught.code).toBe(1);
    expect(beaconFailures(caught.report)).toEqual([
      { seq: commit.seq, check: 'beacon', reason: expect.stringContaining(`round ${beacon.round} was already published when the roll was accepted, so its dice could be known in advance`) },
    ]);
  });
});
