import { describe, expect, it } from 'vitest';
import { GameService } from '../../../functions/application/gameService';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { MemoryEventStore } from '../../../functions/store/memoryStore';

describe('a spectator link revoked in one process', () => {
  it('stops working at once in another process on the same store', async () => {
    const store = new MemoryEventStore();
    const deps = { store, signer: signerFromKey(generateSigningKey()), seedVault: aesSeedVault(newSeedKey()) };
    const writer = new GameService(deps);
    const reader = new GameService(deps);
    const game = await writer.createGame({ ruleset: 'dice' });
    const { viewerId, token } = await writer.addViewer(game.gameId, game.tokens.organizer, {});
    expect((await reader.view(game.gameId, token)).version).toBe(1);
    await writer.revokeViewer(game.gameId, game.tokens.organizer, viewerId);
    await expect(reader.view(game.gameId, token)).rejects.toMatchObject({ status: 401 });
  });
});
