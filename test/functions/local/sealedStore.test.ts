import { DeleteItemCommand, GetItemCommand, PutItemCommand, ScanCommand } from '@aws-sdk/client-dynamodb';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aesSeedVault } from '../../../functions/application/seedVault';
import { startEmbeddedDynamo } from '../../../functions/local/embeddedDynamo';
import { loadOrCreateSeedKey } from '../../../functions/local/keyFiles';
import { TestClient } from '../../support/httpClient';
import { stop, useNpmStart } from '../../support/npmStart';

const { start } = useNpmStart();

interface ListeningSocket {
  kind: 'tcp' | 'tcp6' | 'unix';
  address: string;
}

/** Every socket a process listens on, from /proc: what another local process could connect to. */
function listeningSockets(pid: number): ListeningSocket[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const match = readlinkSync(`/proc/${pid}/fd/${fd}`).match(/^socket:\[(\d+)\]$/);
      if (match) inodes.add(match[1]);
    } catch {
      // closed meanwhile
    }
  }
  const found: ListeningSocket[] = [];
  for (const kind of ['tcp', 'tcp6'] as const) {
    for (const line of readFileSync(`/proc/net/${kind}`, 'utf8').trim().split('\n').slice(1)) {
      const [, local, , state, , , , , , inode] = line.trim().split(/\s+/);
      if (state === '0A' && inodes.has(inode)) found.push({ kind, address: decodeAddress(local) });
    }
  }
  for (const line of readFileSync('/proc/net/unix', 'utf8').trim().split('\n').slice(1)) {
    const [, , , flags, , , inode, path] = line.trim().split(/\s+/);
    if ((parseInt(flags, 16) & 0x10000) !== 0 && inodes.has(inode)) found.push({ kind: 'unix', address: path ?? '(unnamed)' });
  }
  return found;
}

function decodeAddress(hex: string): string {
  const [ip, port] = hex.split(':');
  const address = ip.length === 8 ? ip.match(/../g)!.reverse().map((b) => parseInt(b, 16)).join('.') : ip;
  return `${address}:${parseInt(port, 16)}`;
}

const newDataDir = (label: string) => join(mkdtempSync(join(tmpdir(), `arbiter-${label}-`)), 'data');

describe('the local server keeps its store to itself', () => {
  it('listens on the API port on loopback and nothing else: no other process can reach the embedded store', async () => {
    const server = await start(newDataDir('sockets'));
    const client = new TestClient(server.url);
    const game = await client.createGame({ ruleset: 'dice' });
    await client.command(game.gameId, game.tokens.players.player1, { commandId: 'r', type: 'Roll', payload: { dice: '2d6', purpose: 'store in use' } });
    const port = new URL(server.url).port;
    expect(listeningSockets(server.child.pid!)).toEqual([{ kind: 'tcp', address: `127.0.0.1:${port}` }]);
  });

  it('keeps server seeds encrypted: a copy of the store alone reveals no seed', async () => {
    const dataDir = newDataDir('seeds');
    const first = await start(dataDir);
    const client = new TestClient(first.url);
    const game = await client.createGame({ ruleset: 'dice' });
    await client.command(game.gameId, game.tokens.players.player1, { commandId: 'r', type: 'Roll', payload: { dice: '3d6', purpose: 'before the copy' } });
    expect(await stop(first.child)).toBe(0);

    // What an attacker with the store's files (and not the keys beside them) could read.
    const copy = join(mkdtempSync(join(tmpdir(), 'arbiter-copy-')), 'dynamodb');
    cpSync(join(dataDir, 'dynamodb'), copy, { recursive: true });
    const stolen = await startEmbeddedDynamo({ path: copy });
    // Both tables: the games', and the seeds' beside it.
    const items = [
      ...((await stolen.client.send(new ScanCommand({ TableName: stolen.tableName }))).Items ?? []),
      ...((await stolen.client.send(new ScanCommand({ TableName: stolen.seedTableName }))).Items ?? []),
    ];
    await stolen.close();
    const table = JSON.stringify(items);
    expect(table).toContain(game.gameId);

    const second = await start(dataDir);
    const seal = await new TestClient(second.url).command(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
    const serverSeed: string = seal.body.commit.events[0].data.serverSeed;
    expect(createHash('sha256').update(Buffer.from(serverSeed, 'hex')).digest('hex')).toBe(game.commitment);
    expect(table).not.toContain(serverSeed);
    expect(table).not.toContain(Buffer.from(serverSeed, 'hex').toString('base64'));
    const secretsItem = items.find((item) => item.pk.S === `${game.gameId}#secrets`)!;
    expect(JSON.parse(secretsItem.secrets.S!)).toEqual({ tokenHashes: expect.any(Object) });
    const seedItem = items.find((item) => item.pk.S === `${game.gameId}#seed`)!;
    expect(seedItem.seed.S).toMatch(/^aes256gcm-v1\./);
  });

  it('encrypts at start the plain seeds of games stored before seeds were encrypted', async () => {
    const dataDir = newDataDir('legacy');
    const first = await start(dataDir);
    const game = await new TestClient(first.url).createGame({ ruleset: 'dice' });
    expect(await stop(first.child)).toBe(0);
    // Rewrite the secrets item as an older server stored it: the seed in plain text.
    const vault = aesSeedVault(loadOrCreateSeedKey(dataDir));
    const store = await startEmbeddedDynamo({ path: join(dataDir, 'dynamodb') });
    const key = { pk: { S: `${game.gameId}#secrets` }, sk: { N: '0' } };
    const seedKey = { pk: { S: `${game.gameId}#seed` }, sk: { N: '0' } };
    const rest = JSON.parse((await store.client.send(new GetItemCommand({ TableName: store.tableName, Key: key }))).Item!.secrets.S!);
    const sealedSeed = (await store.client.send(new GetItemCommand({ TableName: store.seedTableName, Key: seedKey }))).Item!.seed.S!;
    const seed = (await vault.open(game.gameId, sealedSeed)).toString('hex');
    await store.client.send(new PutItemCommand({ TableName: store.tableName, Item: { ...key, secrets: { S: JSON.stringify({ ...rest, serverSeed: seed }) } } }));
    await store.client.send(new DeleteItemCommand({ TableName: store.seedTableName, Key: seedKey }));
    await store.close();

    const second = await start(dataDir);
    expect(await stop(second.child)).toBe(0);
    const copy = await startEmbeddedDynamo({ path: join(dataDir, 'dynamodb') });
    const table = JSON.stringify([
      ...((await copy.client.send(new ScanCommand({ TableName: copy.tableName }))).Items ?? []),
      ...((await copy.client.send(new ScanCommand({ TableName: copy.seedTableName }))).Items ?? []),
    ]);
    await copy.close();
    expect(table).toContain(game.gameId);
    expect(table).not.toContain(seed);
  });

  it('makes a data directory that already exists with mode 0755 owner-only, folder and files', async () => {
    const dataDir = newDataDir('modes');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    writeFileSync(join(dataDir, 'notes.txt'), 'left here by the user', { mode: 0o644 });
    const server = await start(dataDir);
    const client = new TestClient(server.url);
    const game = await client.createGame({ ruleset: 'dice' });
    for (let i = 0; i < 5; i++) await client.command(game.gameId, game.tokens.players.player1, { commandId: `r${i}`, type: 'Roll', payload: { dice: 'd6', purpose: 'write' } });
    expect(await stop(server.child)).toBe(0);
    const open: string[] = [];
    const walk = (path: string) => {
      const mode = statSync(path).mode;
      if (mode & 0o077) open.push(`${path} ${(mode & 0o777).toString(8)}`);
      if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
    };
    walk(dataDir);
    expect(open).toEqual([]);
    expect(readdirSync(join(dataDir, 'dynamodb')).length).toBeGreaterThan(0);
  });
});
