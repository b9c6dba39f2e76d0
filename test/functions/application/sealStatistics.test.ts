import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { GameSealed } from '../../../domain/errors';
import { StoreUnavailable } from '../../../functions/ports/eventStore';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { MemoryEventStore, MemoryPublicStats } from '../../../functions/store/memoryStore';
import { compose } from '../../../functions/compose';

/** The public statistics' store, failing its first add as a throttled DynamoDB would. */
class FailingOnce extends MemoryPublicStats {
  failures = 1;
  override async addGame(gameId: string, counts: ReadonlyMap<number, readonly number[]>): Promise<void> {
    if (this.failures-- > 0) throw new StoreUnavailable('throttled');
    return super.addGame(gameId, counts);
  }
}

describe('a seal whose statistics failed after it was stored', () => {
  it('is counted in GET /stats when the organizer seals again, even with a new commandId (a second click), and only once', async () => {
    const publicStats = new FailingOnce();
    let games = 0;
    const service = compose({}, {
      store: new MemoryEventStore(),
      signer: signerFromKey(generateSigningKey()),
      seedVault: aesSeedVault(newSeedKey()),
      randomSeed: () => createHash('sha256').update(`seal-stats:${games}`).digest(),
      newGameId: () => `g-seal-stats-${++games}`,
      now: () => '2026-11-27T10:00:00.000Z',
      publicStats,
    });
    const game = await service.createGame({ ruleset: 'dice' });
    await service.submit(game.gameId, game.tokens.players.player1, { commandId: 'roll', type: 'Roll', payload: { dice: '10d6', purpose: 'a volley' } });

    await expect(service.submit(game.gameId, game.tokens.organizer, { commandId: 'seal-1', type: 'Seal', payload: {} })).rejects.toBeInstanceOf(StoreUnavailable);
    expect((await service.stats.publicFigures()).dice).toEqual([]);

    await expect(service.submit(game.gameId, game.tokens.organizer, { commandId: 'seal-2', type: 'Seal', payload: {} })).rejects.toBeInstanceOf(GameSealed);
    const counted = (await service.stats.publicFigures()).dice;
    expect(counted).toHaveLength(1);
    expect(counted[0]).toMatchObject({ sides: 6, games: 1, figures: { rolls: 10 } });

    await expect(service.submit(game.gameId, game.tokens.organizer, { commandId: 'seal-3', type: 'Seal', payload: {} })).rejects.toBeInstanceOf(GameSealed);
    expect((await service.stats.publicFigures()).dice[0]).toMatchObject({ games: 1, figures: { rolls: 10 } });
  });
});
