import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyBundle } from '../../../domain/verify/verifyBundle';
import { aesSeedVault, newSeedKey, noSeedVault } from '../../../functions/application/seedVault';
import { memoryService } from '../../support/memoryService';

describe('the seed vault', () => {
  const seed = randomBytes(32);

  it('opens what it sealed, and the sealed text holds no trace of the seed', () => {
    const vault = aesSeedVault(newSeedKey());
    const sealed = vault.seal('g-1', seed);
    expect(vault.open('g-1', sealed).equals(seed)).toBe(true);
    expect(sealed).not.toContain(seed.toString('hex'));
    expect(sealed).not.toContain(seed.toString('base64url'));
    expect(vault.seal('g-1', seed)).not.toBe(sealed);
  });

  it('refuses a seed moved to another game, a changed byte, or another key', () => {
    const vault = aesSeedVault(newSeedKey());
    const sealed = vault.seal('g-1', seed);
    expect(() => vault.open('g-2', sealed)).toThrow();
    const [format, iv, body, tag] = sealed.split('.');
    const flipped = Buffer.from(body, 'base64url');
    flipped[0] ^= 1;
    expect(() => vault.open('g-1', [format, iv, flipped.toString('base64url'), tag].join('.'))).toThrow();
    expect(() => aesSeedVault(newSeedKey()).open('g-1', sealed)).toThrow();
  });

  it('opens nothing in a function that may not read seeds', () => {
    expect(() => noSeedVault.open('g-1', aesSeedVault(newSeedKey()).seal('g-1', seed))).toThrow(/may not read server seeds/);
  });
});

describe('a game stored before seeds were encrypted', () => {
  it('has its plain seed encrypted by the first command that reaches it, and keeps its dice', async () => {
    const { service, store, key } = memoryService('legacy');
    const game = await service.createGame({ ruleset: 'dice' });
    const { sealedSeed: _sealed, ...rest } = (await store.readSecrets(game.gameId))!;
    // What an older server stored, copied into a store of today's service: the seed in plain text.
    const seed = createHash('sha256').update('legacy:0').digest(); // memoryService's seed of its first game
    const fresh = memoryService('legacy-2', key);
    await fresh.store.createGame((await store.read(game.gameId, 0))[0], { ...rest, serverSeed: seed.toString('hex') });
    await fresh.service.submit(game.gameId, game.tokens.players.player1, { commandId: 'r', type: 'Roll', payload: { dice: '3d6', purpose: 'after upgrade' } });
    const stored = (await fresh.store.readSecrets(game.gameId))!;
    expect(stored.serverSeed).toBeUndefined();
    expect(JSON.stringify(stored)).not.toContain(seed.toString('hex'));
    expect(stored.sealedSeed).toMatch(/^aes256gcm-v1\./);
    await fresh.service.submit(game.gameId, game.tokens.organizer, { commandId: 's', type: 'Seal', payload: {} });
    const bundle = await fresh.service.exportBundle(game.gameId, game.tokens.organizer);
    expect(bundle.serverSeed).toBe(seed.toString('hex'));
    expect(verifyBundle(bundle)).toMatchObject({ ok: true, checkedDice: 3 });
  });
});
