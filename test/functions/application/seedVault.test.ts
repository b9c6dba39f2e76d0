import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { aesSeedVault, newSeedKey, noSeedVault } from '../../../functions/application/seedVault';

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
