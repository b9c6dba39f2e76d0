import { createHash } from 'node:crypto';
import { generateSigningKey, signerFromKey, type StoredSigningKey } from '../../functions/application/signer';
import { aesSeedVault, newSeedKey } from '../../functions/application/seedVault';
import { MemoryEventStore } from '../../functions/store/memoryStore';
import { compose } from '../../functions/compose';

/** A service on the in-memory store with seeds derived from a label: repeatable games. */
export function memoryService(label = 'test', key: StoredSigningKey = generateSigningKey()) {
  let games = 0;
  const store = new MemoryEventStore();
  const service = compose({}, {
    store,
    signer: signerFromKey(key),
    seedVault: aesSeedVault(newSeedKey()),
    randomSeed: () => createHash('sha256').update(`${label}:${games}`).digest(),
    newGameId: () => `g-${label}-${++games}`,
    now: () => '2026-11-22T10:00:00.000Z',
  });
  return { service, store, key };
}
