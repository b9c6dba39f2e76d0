import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyBundle } from '../../../domain/verify/verifyBundle';
import { aesSeedVault, newSeedKey, noSeedVault } from '../../../functions/application/seedVault';
import { memoryService } from '../../support/memoryService';
import { GameService } from '../../../functions/application/gameService';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { MemoryEventStore } from '../../../functions/store/memoryStore';

describe('the seed vault', () => {
  const seed = randomBytes(32);

  it('opens what it sealed, and the sealed text holds no trace of the seed', async () => {
    const vault = aesSeedVault(newSeedKey());
    const sealed = await vault.seal('g-1', seed);
    expect((await vault.open('g-1', sealed)).equals(seed)).toBe(true);
    expect(sealed).not.toContain(seed.toString('hex'));
    expect(sealed).not.toContain(seed.toString('base64url'));
    expect(await vault.seal('g-1', seed)).not.toBe(sealed);
  });

  it('refuses a seed moved to another game, a changed byte, or another key', async () => {
    const vault = aesSeedVault(newSeedKey());
    const sealed = await vault.seal('g-1', seed);
    await expect(vault.open('g-2', sealed)).rejects.toThrow();
    const [format, iv, body, tag] = sealed.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    await expect(vault.open('g-1', [format, iv, flipped.toString('base64url'), tag].join('.'))).rejects.toThrow();
    await expect(aesSeedVault(newSeedKey()).open('g-1', sealed)).rejects.toThrow();
  });

  it('opens nothing in a function that may not read seeds', async () => {
    await expect(noSeedVault.open('g-1', await aesSeedVault(newSeedKey()).seal('g-1', seed))).rejects.toThrow(/may not read server seeds/);
  });
});

describe('a game stored before seeds were encrypted', () => {
  it('has its plain seed encrypted by the first command that reaches it, and keeps its dice', async () => {
    const { service, store, key } = memoryService('legacy');
    const game = await service.createGame({ ruleset: 'dice' });
    const rest = (await store.readSecrets(game.gameId))!;
    expect(rest).toEqual({ tokenHashes: expect.any(Object) });
    // What an older server stored, copied into a store of today's service: the seed in plain text.
    const seed = createHash('sha256').update('legacy:0').digest(); // memoryService's seed of its first game
    const fresh = memoryService('legacy-2', key);
    await fresh.store.createGame((await store.read(game.gameId, 0))[0], { ...rest, serverSeed: seed.toString('hex') });
    await fresh.service.submit(game.gameId, game.tokens.players.player1, { commandId: 'r', type: 'Roll', payload: { dice: '3d6', purpose: 'after upgrade' } });
    const stored = (await fresh.store.readSecrets(game.gameId))!;
    expect(stored).toEqual({ tokenHashes: rest.tokenHashes });
    expect(await fresh.store.readSeed(game.gameId)).toMatch(/^aes256gcm-v1\./);
    await fresh.service.submit(game.gameId, game.tokens.organizer, { commandId: 's', type: 'Seal', payload: {} });
    const bundle = await fresh.service.exportBundle(game.gameId, game.tokens.organizer);
    expect(bundle.serverSeed).toBe(seed.toString('hex'));
    expect(verifyBundle(bundle)).toMatchObject({ ok: true, checkedDice: 3 });
  });
});

describe('a game stored before seeds had an item of their own', () => {
  it('has its encrypted seed moved out of its secrets item by the first command that reaches it', async () => {
    const vault = aesSeedVault(newSeedKey());
    const signer = signerFromKey(generateSigningKey());
    const today = new MemoryEventStore();
    const game = await new GameService({ store: today, signer, seedVault: vault }).createGame({ ruleset: 'dice' });
    const sealed = (await today.readSeed(game.gameId))!;
    // What the previous version stored: the sealed seed beside the token hashes, no seed item.
    const before = new MemoryEventStore();
    await before.createGame((await today.read(game.gameId, 0))[0], { ...(await today.readSecrets(game.gameId))!, sealedSeed: sealed });
    expect(await before.readSeed(game.gameId)).toBeUndefined();
    const upgraded = new GameService({ store: before, signer, seedVault: vault });
    await upgraded.submit(game.gameId, game.tokens.players.player1, { commandId: 'r', type: 'Roll', payload: { dice: 'd6', purpose: 'after upgrade' } });
    expect(await before.readSecrets(game.gameId)).toEqual({ tokenHashes: expect.any(Object) });
    expect(await before.readSeed(game.gameId)).toBe(sealed);
    await upgraded.submit(game.gameId, game.tokens.organizer, { commandId: 's', type: 'Seal' });
    expect(verifyBundle(await upgraded.exportBundle(game.gameId, game.tokens.organizer))).toMatchObject({ ok: true, checkedDice: 1 });
  });
});
