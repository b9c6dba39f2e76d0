import { describe, expect, it } from 'vitest';
import { verifyBundle } from '../../../domain/verify/verifyBundle';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { GameService } from '../../../functions/application/gameService';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { StoreUnavailable } from '../../../functions/store/eventStore';
import { MemoryEventStore } from '../../../functions/store/memoryStore';
import { FaultyStore } from '../../support/faultyStore';

const roll = (commandId: string) => ({ commandId, type: 'Roll', payload: { dice: '3d6', purpose: commandId } });

/** A service whose store can be told to lose the answer of its next append (the write still lands). */
async function serviceLosingAnswers(soleWriter: boolean) {
  let loseNext = false;
  const store = new FaultyStore(new MemoryEventStore(), (op) => (op === 'append' && loseNext ? ((loseNext = false), 'ambiguous') : undefined));
  const service = new GameService({ store, signer: signerFromKey(generateSigningKey()), seedVault: aesSeedVault(newSeedKey()), soleWriter });
  const game = await service.createGame({ ruleset: 'dice' });
  return { store, service, game, loseNextAnswer: () => (loseNext = true) };
}

describe.each([true, false])('a write that lands but whose answer is lost (sole writer: %s)', (soleWriter) => {
  it('is found by the retry with the same commandId: one commit, never a second roll', async () => {
    const { store, service, game, loseNextAnswer } = await serviceLosingAnswers(soleWriter);
    const token = game.tokens.players.player1;
    await service.submit(game.gameId, token, roll('warm-up'));

    loseNextAnswer();
    await expect(service.submit(game.gameId, token, roll('lost-answer'))).rejects.toBeInstanceOf(StoreUnavailable);
    const retry = await service.submit(game.gameId, token, roll('lost-answer'));
    expect(retry).toMatchObject({ created: false, version: 3 });
    const next = await service.submit(game.gameId, token, roll('after'));
    expect(next).toMatchObject({ created: true, version: 4 });

    const bundle = await service.exportBundle(game.gameId, token);
    expect(bundle.commits.map((c) => c.commandId)).toEqual(['create', 'warm-up', 'lost-answer', 'after']);
    expect(retry.commit).toEqual(bundle.commits[2]);
    expect(verifyBundle(bundle).ok).toBe(true);
    expect(store.injected.ambiguous).toBe(1);
  });

  it('a different command after the lost answer lands at the next seq', async () => {
    const { service, game, loseNextAnswer } = await serviceLosingAnswers(soleWriter);
    const token = game.tokens.players.player2;
    await service.submit(game.gameId, token, roll('a'));
    loseNextAnswer();
    await expect(service.submit(game.gameId, token, roll('b'))).rejects.toBeInstanceOf(StoreUnavailable);
    expect(await service.submit(game.gameId, token, roll('c'))).toMatchObject({ created: true, version: 4 });
  });
});
