import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { GameService } from '../../../functions/application/gameService';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import type { EventStore } from '../../../functions/store/eventStore';
import { MemoryEventStore } from '../../../functions/store/memoryStore';
import { FaultyStore, type Operation } from '../../support/faultyStore';

const roll = (commandId: string) => ({ commandId, type: 'Roll', payload: { dice: '2d6', purpose: commandId } });

/** A store whose first read of a whole game answers late: a load that starts first ends last. */
function slowFirstRead(inner: EventStore): EventStore {
  let reads = 0;
  return {
    createGame: (first, secrets, head, seed, idempotency) => inner.createGame(first, secrets, head, seed, idempotency),
    readIdempotency: (keyHash) => inner.readIdempotency(keyHash),
    readSeed: (gameId) => inner.readSeed(gameId),
    writeSeed: (gameId, seed) => inner.writeSeed(gameId, seed),
    append: (commit, head) => inner.append(commit, head),
    appendGroup: (commits, head) => inner.appendGroup(commits, head),
    readHead: (gameId, seq) => inner.readHead(gameId, seq),
    findCommandId: (gameId, commandId) => inner.findCommandId(gameId, commandId),
    readSecrets: (gameId) => inner.readSecrets(gameId),
    replaceSecrets: (gameId, secrets) => inner.replaceSecrets(gameId, secrets),
    addViewer: (gameId, viewer) => inner.addViewer(gameId, viewer),
    revokeViewer: (gameId, viewerId) => inner.revokeViewer(gameId, viewerId),
    readViewers: (gameId) => inner.readViewers(gameId),
    addIssuedToken: (gameId, token) => inner.addIssuedToken(gameId, token),
    readIssuedTokens: (gameId) => inner.readIssuedTokens(gameId),
    createTournament: (tournament) => inner.createTournament(tournament),
    readTournament: (tournamentId) => inner.readTournament(tournamentId),
    findTournamentByTokenHash: (tokenHash) => inner.findTournamentByTokenHash(tokenHash),
    addTournamentGame: (tournamentId, gameId) => inner.addTournamentGame(tournamentId, gameId),
    listTournamentGames: (tournamentId) => inner.listTournamentGames(tournamentId),
    read: async (gameId, after, limit) => {
      const commits = await inner.read(gameId, after, limit);
      if (after === 0 && ++reads === 1) await sleep(60);
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
    const service = new GameService({ store: slowFirstRead(store), signer: signerFromKey(key), seedVault, soleWriter });
    // The read starts first and its fold of the game ends after the command was stored.
    const viewing = service.view(created.gameId, token);
    const [command] = await Promise.all([service.submit(created.gameId, token, roll('r1')), viewing]);
    expect(command).toMatchObject({ created: true, version: 2 });

    expect((await service.view(created.gameId, token)).version).toBe(2);
    const page = await service.events(created.gameId, token, 1, 10, 20);
    expect(page.commits.map((c) => c.seq)).toEqual([2]);
  });
});

describe('a game this process created', () => {
  it('is cached whole by the only writer: its first command reads nothing from the store, and its state is the fold of what was stored', async () => {
    const store = new MemoryEventStore();
    const key = generateSigningKey();
    const seedVault = aesSeedVault(newSeedKey());
    const operations: Operation[] = [];
    const service = new GameService({ store: new FaultyStore(store, (operation) => void operations.push(operation)), signer: signerFromKey(key), seedVault, soleWriter: true });
    const created = await service.createGame({ ruleset: 'dice' });
    const token = created.tokens.players.player1;
    operations.length = 0;

    expect(await service.submit(created.gameId, token, roll('r1'))).toMatchObject({ created: true, version: 2 });
    expect(operations).toEqual(['append']);

    const fresh = new GameService({ store, signer: signerFromKey(key), seedVault, soleWriter: true });
    expect(await service.view(created.gameId, token)).toEqual(await fresh.view(created.gameId, token));
  });

  it('is folded from the store by a writer that is not the only one: another process may have written meanwhile', async () => {
    const store = new MemoryEventStore();
    const operations: Operation[] = [];
    const service = new GameService({ store: new FaultyStore(store, (operation) => void operations.push(operation)), signer: signerFromKey(generateSigningKey()), seedVault: aesSeedVault(newSeedKey()) });
    const created = await service.createGame({ ruleset: 'dice' });
    operations.length = 0;
    await service.submit(created.gameId, created.tokens.players.player1, roll('r1'));
    expect(operations).toContain('read');
  });
});
