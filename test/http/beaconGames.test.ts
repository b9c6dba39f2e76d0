import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLocalService, type LocalService } from '../../functions/local/localService';
import { CommandPendingShape, CommandRevealedShape, ErrorShape, GameViewShape } from '../../functions/http/apiShapes';
import { FAKE_CHAIN, FakeBeaconSource, fakeSignature, shortWait, TestClock } from '../support/beaconFakes';
import { TestClient } from '../support/httpClient';

const clock = new TestClock();
const source = new FakeBeaconSource(clock);
let local: LocalService;
let client: TestClient;

beforeAll(async () => {
  local = await startLocalService({
    now: clock.now,
    beaconChains: new Map([[FAKE_CHAIN.chain, FAKE_CHAIN]]),
    beaconSource: source,
    revealWait: shortWait,
    observer: { unexpected: (error) => console.error(`unexpected in test server: ${error.stack}`) },
  });
  client = new TestClient(local.url);
});
afterAll(async () => {
  await local?.close();
});

const roll = (commandId: string) => ({ commandId, type: 'Roll', payload: { dice: '2d6', purpose: `roll ${commandId}` } });

async function beaconGame() {
  const created = await client.post('/games', { ruleset: 'dice', randomness: { beacon: 'fake' } });
  expect(created.status).toBe(201);
  return { gameId: created.body.gameId as string, p1: created.body.tokens.players.player1 as string, organizer: created.body.tokens.organizer as string };
}

const versionOf = async (gameId: string, token: string) => (await client.get(`/games/${gameId}`, token)).body.version as number;

describe('a beacon game over HTTP', () => {
  it('answers a roll 202 with its pending commit, 409 beacon_pending with Retry-After meanwhile, and a retry with the pair once revealed', async () => {
    const game = await beaconGame();
    const entropy = await client.command(game.gameId, game.p1, { commandId: 'e', type: 'ContributeEntropy', payload: { entropy: 'first' } });
    expect(entropy.status).toBe(201);

    const pending = await client.command(game.gameId, game.p1, roll('r1'));
    expect(pending.status).toBe(202);
    const body = CommandPendingShape.parse(pending.body);
    expect(body.beacon).toEqual({ chain: 'fake', round: body.commit.events[0].data.round, roundAt: body.commit.events[0].data.roundAt });
    expect(body.commit).toMatchObject({ seq: 3, commandId: 'r1', dice: [], events: [{ type: 'BeaconRollPending' }] });

    const view = GameViewShape.parse((await client.get(`/games/${game.gameId}`, game.p1)).body);
    expect(view.beacon).toEqual({ chain: 'fake', chainHash: FAKE_CHAIN.chainHash, pending: { seq: 3, round: body.beacon.round, roundAt: body.beacon.roundAt, late: false } });

    const seal = await client.command(game.gameId, game.organizer, { commandId: 's', type: 'Seal', payload: {} });
    expect(seal.status).toBe(409);
    expect(ErrorShape.parse(seal.body).error).toMatchObject({ code: 'beacon_pending', details: { round: body.beacon.round, roundAt: body.beacon.roundAt } });
    expect(seal.headers.get('retry-after')).toBe(String(Math.ceil((Date.parse(body.beacon.roundAt) - clock.ms) / 1000) + FAKE_CHAIN.period));

    const retried = await client.command(game.gameId, game.p1, roll('r1'), { accept: 'text/plain' });
    expect(retried.status).toBe(202);
    expect(retried.text).toBe(`#3 player1 Roll waits for drand round ${body.beacon.round} (${body.beacon.roundAt}) [${body.commit.hash.slice(0, 8)}]\n`);

    clock.advance(4_000);
    await expect.poll(() => versionOf(game.gameId, game.p1)).toBe(4);
    const pair = await client.command(game.gameId, game.p1, roll('r1'));
    expect(pair.status).toBe(200);
    const revealed = CommandRevealedShape.parse(pair.body);
    expect(revealed.commit).toEqual(body.commit);
    expect(revealed.reveal).toMatchObject({ seq: 4, actor: 'server', commandId: 'beacon/3', command: { type: 'RevealBeacon', payload: { pending: 3, round: body.beacon.round, signature: fakeSignature(body.beacon.round) } } });
    expect(revealed.reveal.dice).toHaveLength(2);
    const lines = (await client.command(game.gameId, game.p1, roll('r1'), { accept: 'text/plain' })).text.split('\n');
    expect(lines).toHaveLength(3);
    // The reveal's line reads as the roll's would, its dice shown.
    const [a, b] = revealed.reveal.dice.map((d) => d.value);
    expect(lines[1]).toBe(`#4 server RevealBeacon drand round ${body.beacon.round} for #3: "roll r1": 2d6 = ${a} ${b} = ${a + b} [${revealed.reveal.hash.slice(0, 8)}]`);
    expect((await client.get(`/games/${game.gameId}`, game.p1)).body.beacon).toEqual({ chain: 'fake', chainHash: FAKE_CHAIN.chainHash });

    expect((await client.command(game.gameId, game.organizer, { commandId: 's', type: 'Seal', payload: {} })).status).toBe(201);
  });

  it('refuses a chain the server does not offer with 400 naming randomness.beacon', async () => {
    const refused = await client.post('/games', { ruleset: 'dice', randomness: { beacon: 'quicknet' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.issues).toEqual([{ field: 'randomness.beacon', message: expect.stringContaining('it offers fake'), valid: ['fake'] }]);
  });

  it('creates the games of a beacon tournament as beacon games', async () => {
    const tournament = await client.post('/tournaments', { name: 'beacon cup', randomness: { beacon: 'fake' } });
    expect(tournament.status).toBe(201);
    expect(tournament.body.randomness).toEqual({ beacon: 'fake' });
    const game = await client.post('/games', { ruleset: 'dice' }, tournament.body.token);
    expect(game.status).toBe(201);
    const view = await client.get(`/games/${game.body.gameId}`, game.body.tokens.organizer);
    expect(view.body.beacon).toEqual({ chain: 'fake', chainHash: FAKE_CHAIN.chainHash });
  });
});

describe('a local server restarted while a roll waits', () => {
  it('finds the pending commit in its store when it starts again and reveals it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'arbiter-b32-accept-restart-'));
    const dataDir = join(root, 'data');
    const restartClock = new TestClock();
    const relay = new FakeBeaconSource(restartClock);
    const options = { dataDir, now: restartClock.now, beaconChains: new Map([[FAKE_CHAIN.chain, FAKE_CHAIN]]), beaconSource: relay, revealWait: shortWait };
    try {
      relay.down = true;
      const first = await startLocalService(options);
      const firstClient = new TestClient(first.url);
      const created = await firstClient.post('/games', { ruleset: 'dice', randomness: { beacon: 'fake' } });
      const p1 = created.body.tokens.players.player1 as string;
      expect((await firstClient.command(created.body.gameId, p1, roll('r1'))).status).toBe(202);
      await first.close();

      // Started without a relay, it says why the roll stays pending.
      const warnings: string[] = [];
      const warn = vi.spyOn(console, 'warn').mockImplementation((line: string) => void warnings.push(line));
      try {
        const { beaconSource: _none, ...withoutRelay } = options;
        const bare = await startLocalService(withoutRelay);
        await expect.poll(() => warnings.some((line) => line.includes('no relay is set (ARBITER_DRAND_RELAYS)'))).toBe(true);
        await bare.close();
      } finally {
        warn.mockRestore();
      }

      relay.down = false;
      restartClock.advance(4_000);
      const second = await startLocalService(options);
      try {
        const secondClient = new TestClient(second.url);
        await expect.poll(async () => (await secondClient.get(`/games/${created.body.gameId}`, p1)).body.version).toBe(3);
        const events = await secondClient.get(`/games/${created.body.gameId}/events`, p1);
        expect(events.body.commits.map((c: { commandId: string }) => c.commandId)).toEqual(['create', 'r1', 'beacon/2']);
      } finally {
        await second.close();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
