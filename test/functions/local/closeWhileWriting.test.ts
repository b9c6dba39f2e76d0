import { describe, expect, it, vi } from 'vitest';
import { GameService } from '../../../functions/application/gameService';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import type { Snapshot } from '../../../functions/application/snapshots';
import { startLocalService } from '../../../functions/local/localService';
import { MemoryEventStore, MemorySnapshots } from '../../../functions/store/memoryStore';

describe('the work that follows an answer', () => {
  it('is waited for by idle(): a snapshot a command made due is written after its answer, and idle() ends only once it is', async () => {
    const snapshots = new MemorySnapshots();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const write = snapshots.write.bind(snapshots);
    snapshots.write = async (gameId: string, snapshot: Snapshot) => {
      await gate;
      return write(gameId, snapshot);
    };
    const service = new GameService({ store: new MemoryEventStore(), signer: signerFromKey(generateSigningKey()), seedVault: aesSeedVault(newSeedKey()), snapshots: { store: snapshots, write: true, interval: 5 } });
    const game = await service.createGame({ ruleset: 'dice' });
    for (let i = 2; i <= 5; i++) await service.submit(game.gameId, game.tokens.players.player1, { commandId: `r${i}`, type: 'Roll', payload: { dice: 'd6', purpose: `roll ${i}` } });
    let idle = false;
    const waiting = service.idle().then(() => (idle = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(idle).toBe(false);
    expect(snapshots.stored.size).toBe(0);
    release();
    await waiting;
    expect(snapshots.stored.size).toBe(1);
  });

  it('is waited for when the local server closes, before its store does', async () => {
    const local = await startLocalService();
    const idle = vi.spyOn(local.service, 'idle');
    await local.close();
    expect(idle).toHaveBeenCalledTimes(1);
  });
});
