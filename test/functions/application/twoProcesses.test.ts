import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyBundle } from '../../../domain/verify/verifyBundle';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { GameService } from '../../../functions/application/gameService';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../../functions/local/embeddedDynamo';
import { DynamoEventStore } from '../../../functions/store/dynamoStore';

let dynamo: EmbeddedDynamo;
beforeAll(async () => {
  dynamo = await startEmbeddedDynamo();
});
afterAll(async () => {
  await dynamo?.close();
});

/** Two warm processes (say, two Lambda containers) on one table, each with its own cache. */
function twoProcesses() {
  const key = generateSigningKey();
  const seedVault = aesSeedVault(newSeedKey());
  const make = () => new GameService({ store: new DynamoEventStore(dynamo.client, dynamo.tableName), signer: signerFromKey(key), seedVault });
  return [make(), make()] as const;
}
const roll = (commandId: string, extra: Record<string, unknown> = {}) => ({ commandId, type: 'Roll', payload: { dice: '2d6', purpose: commandId }, ...extra });

describe('two processes on one store', () => {
  it('a process with a stale cache appends at the right seq, and the game verifies', async () => {
    const [a, b] = twoProcesses();
    const game = await a.createGame({ ruleset: 'dice' });
    const token = game.tokens.players.player1;
    await a.submit(game.gameId, token, roll('a1')); // a caches the game at version 2
    for (let i = 0; i < 3; i++) await b.submit(game.gameId, token, roll(`b${i}`)); // 3..5
    const outcome = await a.submit(game.gameId, token, roll('a2'));
    expect(outcome).toMatchObject({ created: true, version: 6 });
    const bundle = await b.exportBundle(game.gameId, token);
    expect(bundle.commits.map((c) => c.commandId)).toEqual(['create', 'a1', 'b0', 'b1', 'b2', 'a2']);
    expect(verifyBundle(bundle).ok).toBe(true);
  });

  it('a retry sent to the other process returns the stored commit, not a second roll', async () => {
    const [a, b] = twoProcesses();
    const game = await a.createGame({ ruleset: 'dice' });
    const token = game.tokens.players.player2;
    await a.submit(game.gameId, token, roll('warm'));
    const first = await b.submit(game.gameId, token, roll('once'));
    const retry = await a.submit(game.gameId, token, roll('once'));
    expect(retry.created).toBe(false);
    expect(retry.commit).toEqual(first.commit);
    expect((await a.exportBundle(game.gameId, token)).commits).toHaveLength(3);
  });

  it('judges expectedVersion against the store, not a stale cache', async () => {
    const [a, b] = twoProcesses();
    const game = await a.createGame({ ruleset: 'dice' });
    const token = game.tokens.players.player1;
    await a.submit(game.gameId, token, roll('x1'));
    const seen = await b.submit(game.gameId, token, roll('x2'));
    // The client saw version 3 from b; a still caches version 2.
    expect(await a.submit(game.gameId, token, roll('x3', { expectedVersion: seen.version }))).toMatchObject({ created: true, version: 4 });
    await expect(a.submit(game.gameId, token, roll('x4', { expectedVersion: 3 }))).rejects.toMatchObject({ status: 409, details: { currentVersion: 4 } });
  });

  it('refuses a command after the other process sealed the game', async () => {
    const [a, b] = twoProcesses();
    const game = await a.createGame({ ruleset: 'dice' });
    await a.submit(game.gameId, game.tokens.players.player1, roll('r'));
    await b.submit(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    await expect(a.submit(game.gameId, game.tokens.players.player1, roll('late'))).rejects.toMatchObject({ code: 'game_sealed' });
  });

  it('a token revoked or reissued in one process stops working in the other at once, for reads and commands', async () => {
    const [a, b] = twoProcesses();
    const game = await a.createGame({ ruleset: 'dice' });
    const old = game.tokens.players.player1;
    // Process b has the game warm, with the old token accepted.
    await b.submit(game.gameId, old, roll('warm'));
    expect((await b.view(game.gameId, old)).role).toBe('player1');

    const reissued = await a.reissueToken(game.gameId, game.tokens.organizer, 'player1');
    await expect(b.view(game.gameId, old)).rejects.toMatchObject({ status: 401 });
    await expect(b.submit(game.gameId, old, roll('stale'))).rejects.toMatchObject({ status: 401 });
    expect((await b.submit(game.gameId, reissued.token, roll('fresh'))).created).toBe(true);

    await a.revokeToken(game.gameId, game.tokens.organizer, 'player1');
    await expect(b.submit(game.gameId, reissued.token, roll('after-revoke'))).rejects.toMatchObject({ status: 401 });
    await expect(b.events(game.gameId, reissued.token, 0, 10)).rejects.toMatchObject({ status: 401 });
    expect((await b.view(game.gameId, game.tokens.organizer)).version).toBe(5);
  });
});
