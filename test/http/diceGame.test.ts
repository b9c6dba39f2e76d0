import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { useTestServer, type TestClient } from '../support/httpClient';
import { run, writeTemp } from '../support/runCli';

const server = useTestServer();

describe('a whole dice game over HTTP', () => {
  // Played once, by whichever test needs it first, so that each test holds in any order.
  let played: Promise<{ game: Awaited<ReturnType<TestClient['createGame']>>; exported: string; serverSeed: string }> | undefined;
  const playedGame = () => (played ??= play());

  async function play() {
    const game = await server.client.createGame({ ruleset: 'dice', title: 'Kursk, turn 3' });
    expect(game.commitment).toMatch(/^[0-9a-f]{64}$/);
    const { player1, player2 } = game.tokens.players;

    expect((await server.client.command(game.gameId, player1, { commandId: 'e1', type: 'ContributeEntropy', payload: { entropy: 'alpha' } })).status).toBe(201);
    expect((await server.client.command(game.gameId, player2, { commandId: 'e2', type: 'ContributeEntropy', payload: { entropy: 'bravo' } })).status).toBe(201);

    for (let i = 0; i < 20; i++) {
      const token = i % 2 ? player2 : player1;
      const reply = await server.client.command(game.gameId, token, { commandId: `roll-${i}`, type: 'Roll', payload: { dice: '2d6+1', purpose: `attack ${i}` } });
      expect(reply.status).toBe(201);
      expect(reply.body.version).toBe(4 + i);
      const [rolled] = reply.body.commit.events;
      expect(rolled.data.total).toBe(rolled.data.rolls[0].value + rolled.data.rolls[1].value + 1);
      expect(reply.body.commit.dice).toEqual(rolled.data.rolls);
    }

    const view = await server.client.get(`/games/${game.gameId}`, player1);
    expect(view.body).toMatchObject({ ruleset: 'dice', title: 'Kursk, turn 3', version: 23, sealed: false, state: { rolls: 20 } });

    const beforeSeal = await server.client.get(`/games/${game.gameId}/export`, player2);
    expect(beforeSeal.body.serverSeed).toBeUndefined();

    const seal = await server.client.command(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    expect(seal.status).toBe(201);
    const serverSeed: string = seal.body.commit.events[0].data.serverSeed;
    expect(seal.body.commit.events[0]).toEqual({ type: 'GameSealed', data: { serverSeed: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    expect(createHash('sha256').update(Buffer.from(serverSeed, 'hex')).digest('hex')).toBe(game.commitment);

    const bundle = await server.client.get(`/games/${game.gameId}/export`, player1);
    expect(bundle.status).toBe(200);
    expect(bundle.body).toMatchObject({ gameId: game.gameId, ruleset: 'dice', commitment: game.commitment, serverSeed });
    expect(bundle.body.commits).toHaveLength(24);

    const verified = await server.client.get(`/games/${game.gameId}/verify`, player2);
    expect(verified.body).toEqual({ ok: true, checkedCommits: 24, checkedDice: 40, sealed: true, failures: [] });
    return { game, exported: bundle.text, serverSeed };
  }

  it('plays: create, entropy from both sides, 20 rolls, seal, export, verify', async () => {
    await playedGame();
  });

  it('never shows the server seed before the seal', async () => {
    const { serverSeed } = await playedGame();
    const sealIndex = server.client.transcript.findIndex((text) => text.includes('GameSealed'));
    expect(sealIndex).toBeGreaterThan(0);
    for (const text of server.client.transcript.slice(0, sealIndex)) expect(text).not.toContain(serverSeed);
  });

  it('refuses commands once sealed, but still answers a retry of an earlier one', async () => {
    const { game } = await playedGame();
    const late = await server.client.command(game.gameId, game.tokens.players.player1, { commandId: 'late', type: 'Roll', payload: { dice: 'd6', purpose: 'too late' } });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('game_sealed');
    const retry = await server.client.command(game.gameId, game.tokens.players.player1, { commandId: 'roll-0', type: 'Roll', payload: { dice: '2d6+1', purpose: 'attack 0' } });
    expect(retry.status).toBe(200);
    expect(retry.body.commit.seq).toBe(4);
  });

  it('passes an independent implementation of fairness-v1', async () => {
    const { exported } = await playedGame();
    const file = writeTemp('export.json', exported);
    const result = await run('node', ['test/independent/fairness-v1-verifier.mjs', file]);
    expect(JSON.parse(result.stdout)).toEqual({ ok: true, commits: 24, dice: 40, sealed: true, problems: [] });
    expect(result.code).toBe(0);
  });

  it('passes `npx arbiter verify` from a file, and from the url', async () => {
    const { game, exported } = await playedGame();
    const file = writeTemp('export.json', exported);
    const fromFile = await run('npx', ['--no-install', 'arbiter', 'verify', file, '--trust', server.local.service.signer.fingerprint]);
    expect(fromFile.code).toBe(0);
    expect(fromFile.stdout).toContain('40 dice re-derived');
    expect(fromFile.stdout.trim().split('\n').at(-1)).toBe('OK');
    const fromUrl = await run('node', ['bin/arbiter.mjs', 'verify', `${server.local.url}/games/${game.gameId}`, '--token', game.tokens.players.player2, '--trust', server.local.service.signer.fingerprint]);
    expect(fromUrl.code).toBe(0);
  });

  it('fails `arbiter verify` and the independent verifier on a tampered copy, naming the seq', async () => {
    const { exported } = await playedGame();
    const bundle = JSON.parse(exported);
    bundle.commits[9].dice[0].value = (bundle.commits[9].dice[0].value % 6) + 1;
    const file = writeTemp('tampered.json', JSON.stringify(bundle));
    const cli = await run('node', ['bin/arbiter.mjs', 'verify', file, '--trust', server.local.service.signer.fingerprint]);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toMatch(/FAILED at seq 10 \(hash\)/);
    const independent = await run('node', ['test/independent/fairness-v1-verifier.mjs', file]);
    expect(independent.code).toBe(1);
    expect(JSON.parse(independent.stdout).problems).toContain('seq 10: hash');
  });
});
