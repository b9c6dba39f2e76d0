import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { GameService } from '../../../functions/application/gameService';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import type { EventStore } from '../../../functions/store/eventStore';
import { MemoryEventStore } from '../../../functions/store/memoryStore';

const roll = (commandId: string) => ({ commandId, type: 'Roll', payload: { dice: '2d6', purpose: commandId } });

/** A store whose reads of a whole game answer late, one after another: the second cold load ends after the first's write. */
function slowFirstReads(inner: EventStore): EventStore {
  let reads = 0;
  return {
    createGame: (first, secrets) => inner.createGame(first, secrets),
    append: (commit) => inner.append(commit),
    readSecrets: (gameId) => inner.readSecrets(gameId),
    read: async (gameId, after, limit) => {
      const commits = await inner.read(gameId, after, limit);
      if (after === 0) await sleep(++reads * 30);
      return commits;
    },
  };
}

describe('a game not yet loaded since the process started', () => {
  it.each([true, false])('never shows a reader less than an acknowledged command, sent together with it (sole writer: %s)', async (soleWriter) => {
    const store = new MemoryEventStore();
    const key = generateSigningKey();
    const seedVault = aesSeedVault(newSeedKey());
    const created = await new GameService({ store, signer: signerFromKey(key), seedVault }).createGame({ ruleset: 'dice' });
    const token = created.tokens.players.player1;

    // A freshly started process: nothing cached.
    const service = new GameService({ store: slowFirstReads(store), signer: signerFromKey(key), seedVault, soleWriter });
    const [command, view] = await Promise.all([service.submit(created.gameId, token, roll('r1')), service.view(created.gameId, token)]);
    expect(command).toMatchObject({ created: true, version: 2 });
    expect(view.version).toBeLessThanOrEqual(2);

    expect((await service.view(created.gameId, token)).version).toBe(2);
    const page = await service.events(created.gameId, token, 1, 10, 20);
    expect(page.commits.map((c) => c.seq)).toEqual([2]);
  });
});
