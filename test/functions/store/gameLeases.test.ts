import { ScanCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../../functions/local/embeddedDynamo';
import { DynamoCreationCounter } from '../../../functions/store/dynamoCreationCounter';
import { DynamoGameLeases } from '../../../functions/store/dynamoGameLeases';
import { DynamoSnapshots } from '../../../functions/store/dynamoSnapshots';
import { DynamoEventStore } from '../../../functions/store/dynamoStore';
import type { GameSecrets } from '../../../functions/store/eventStore';
import { sampleCommit } from '../../support/commits';

const secrets: GameSecrets = { tokenHashes: { organizer: '00'.repeat(32), players: { player1: '11'.repeat(32) } } };
let dynamo: EmbeddedDynamo;
let store: DynamoEventStore;
let leases: DynamoGameLeases;

beforeAll(async () => {
  dynamo = await startEmbeddedDynamo();
  store = new DynamoEventStore(dynamo.client, dynamo.tableName);
  leases = new DynamoGameLeases(dynamo.client, dynamo.tableName);
});
afterAll(async () => {
  await dynamo?.close();
});

/** Every partition key in the table that names the game. */
async function keysOf(gameId: string): Promise<string[]> {
  const page = await dynamo.client.send(new ScanCommand({ TableName: dynamo.tableName }));
  return (page.Items ?? []).map((item) => `${item.pk.S}/${item.sk.N}`).filter((key) => key.includes(gameId));
}

/** A game with every kind of item: 60 commits (more than one batch of deletes), seed, secrets, a spectator link, an issued token, a snapshot in two parts, a lease. */
async function fullGame(gameId: string) {
  await store.createGame(sampleCommit(gameId, 1, 'create'), secrets, undefined, 'sealed-seed');
  for (let seq = 2; seq <= 60; seq++) await store.append(sampleCommit(gameId, seq));
  await store.addViewer(gameId, { viewerId: 'v-1', tokenHash: '22'.repeat(32), createdAt: '2026-11-22T10:00:00.000Z', revoked: false });
  await store.addIssuedToken(gameId, { tokenId: 'k-1', role: 'player1', tokenHash: '33'.repeat(32), createdAt: '2026-11-22T10:00:00.000Z' });
  await new DynamoSnapshots(dynamo.client, dynamo.tableName).write(gameId, { format: 1, ruleset: 'dice@1', seq: 60, hash: '00'.repeat(32), state: 'x'.repeat(400_000) });
  await leases.arm(gameId, 1_000);
}

describe('game leases in DynamoDB (dynalite)', () => {
  it('deletes every item of a game, the seed and the lease included, and nothing of another game', async () => {
    await fullGame('g-lease-a');
    await fullGame('g-lease-b');
    expect((await keysOf('g-lease-a')).length).toBe(60 + 7);
    await leases.deleteGame('g-lease-a');
    expect(await keysOf('g-lease-a')).toEqual([]);
    expect((await keysOf('g-lease-b')).length).toBe(60 + 7);
    expect(await store.readSeed('g-lease-b')).toBe('sealed-seed');
  });

  it('lists due leases only, arms again, and drops a lease', async () => {
    await leases.arm('g-due-1', 100);
    await leases.arm('g-due-2', 200);
    await leases.arm('g-later', 10_000);
    const due = await leases.due(250, 100);
    expect(due).toEqual(expect.arrayContaining(['g-due-1', 'g-due-2']));
    expect(due).not.toContain('g-later');
    await leases.arm('g-due-1', 5_000);
    await leases.disarm('g-due-2');
    const later = await leases.due(250, 100);
    expect(later).not.toContain('g-due-1');
    expect(later).not.toContain('g-due-2');
  });

  it('reads the last commit of a game, and whether it is sealed', async () => {
    await store.createGame(sampleCommit('g-last', 1, 'create'), secrets);
    await store.append(sampleCommit('g-last', 2));
    expect(await leases.lastCommit('g-last')).toEqual({ recordedAt: '2026-11-22T10:00:00.000Z', sealed: false });
    const seal = { ...sampleCommit('g-last', 3), events: [{ type: 'GameSealed', data: { serverSeed: 'ab' } }] };
    await store.append(seal, { gameId: 'g-last', seq: 3, lastHash: seal.hash, sealed: true, at: seal.recordedAt, kid: 'test', signature: 'c2ln' } as never);
    expect(await leases.lastCommit('g-last')).toMatchObject({ sealed: true });
    expect(await leases.lastCommit('g-nothing')).toBeUndefined();
  });
});

describe('creation counts in DynamoDB (dynalite)', () => {
  it('counts up to the limit in a window and refuses beyond; another window or client starts again', async () => {
    const counter = new DynamoCreationCounter(dynamo.client, dynamo.tableName);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await counter.count('client-a', 3600, 3));
    expect(answers).toEqual([true, true, true, false]);
    expect(await counter.count('client-a', 7200, 3)).toBe(true);
    expect(await counter.count('client-b', 3600, 3)).toBe(true);
  });

  it('counts creations made at once exactly', async () => {
    const counter = new DynamoCreationCounter(dynamo.client, dynamo.tableName);
    const answers = await Promise.all(Array.from({ length: 20 }, () => counter.count('client-c', 3600, 7)));
    expect(answers.filter(Boolean)).toHaveLength(7);
  });
});
