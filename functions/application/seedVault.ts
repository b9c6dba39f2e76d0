import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SeedVault } from '../ports/seedVault';
export type { SeedVault } from '../ports/seedVault';

const FORMAT = 'aes256gcm-v1';

/** AES-256-GCM under a 32-byte key, the game id as associated data: a seed can't be moved to another game. */
export function aesSeedVault(key: Buffer): SeedVault {
  if (key.length !== 32) throw new Error('a seed key has 32 bytes');
  return {
    async seal(gameId, seed) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(gameId, 'utf8'));
      const encrypted = Buffer.concat([cipher.update(seed), cipher.final()]);
      return [FORMAT, iv, encrypted, cipher.getAuthTag()].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },
    async open(gameId, sealed) {
      const [format, iv, encrypted, tag] = sealed.split('.');
      if (format !== FORMAT || !iv || !encrypted || !tag) throw new Error('not a sealed seed');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(gameId, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(encrypted, 'base64url')), decipher.final()]);
    },
  };
}

/** For functions that never roll: any attempt to use a seed is a wiring error, not a user's. */
export const noSeedVault: SeedVault = {
  seal: () => Promise.reject(new Error('this function may not create games')),
  open: () => Promise.reject(new Error('this function may not read server seeds')),
};

export function newSeedKey(): Buffer {
  return randomBytes(32);
}
