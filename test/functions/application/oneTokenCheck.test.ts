import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Credentials } from '../../../functions/application/credentials';
import { GameService } from '../../../functions/application/gameService';
import { MAX_GROUP } from '../../../functions/application/groupCommit';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import type { EventStore } from '../../../functions/ports/eventStore';
import { MemoryEventStore } from '../../../functions/store/memoryStore';

const key = generateSigningKey();
const seedVault = aesSeedVault(newSeedKey());
let games = 0;

/** A grouping service whose writes wait at a gate while it is closed: the commands sent meanwhile form the next group. */
function gatedService() {
  const store = new MemoryEventStore();
  let opened: () => void = () => {};
  let gate: Promise<void> | undefined;
  const gated = Object.create(store) as EventStore;
  gated.appendGroup = async (commits, head) => {
    if (gate) await gate;
    return store.appendGroup(commits, head);
  };
  const service = new GameService({
    store: gated,
    signer: signerFromKey(key),
    seedVault,
    maxGroup: MAX_GROUP,
    soleWriter: true,
    randomSeed: () => createHash('sha256').update(`token-once:${games}`).digest(),
    newGameId: () => `g-token-once-${++games}`,
  });
  return {
    service,
    close: () => void (gate = new Promise<void>((resolve) => (opened = resolve))),
    open: () => {
      gate = undefined;
      opened();
    },
  };
}

/** Lets the commands already sent reach their group (the memory store answers without I/O). */
async function settleTurns(): Promise<void> {
  for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
}

const roll = (id: string, as?: string) => ({ commandId: id, type: 'Roll', payload: { dice: '2d6', purpose: id }, ...(as ? { as } : {}) });

afterEach(() => vi.restoreAllMocks());

describe("a command's token", () => {
  it('is checked once per request: for a command, and for a token command', async () => {
    const { service } = gatedService();
    const game = await service.createGame({ ruleset: 'dice' });
    const checks = vi.spyOn(Credentials.prototype as unknown as { holder: () => Promise<unknown> }, 'holder');
    await service.submit(game.gameId, game.tokens.players.player1, roll('once'));
    expect(checks).toHaveBeenCalledTimes(1);
    checks.mockClear();
    await service.revokeToken(game.gameId, game.tokens.organizer, 'player2');
    expect(checks).toHaveBeenCalledTimes(1);
  });

  it('stops acting when a command ahead of it in the same group revokes it', async () => {
    const { service, close, open } = gatedService();
    const game = await service.createGame({ ruleset: 'dice' });
    close();
    const blocker = service.submit(game.gameId, game.tokens.players.player1, roll('blocker'));
    await settleTurns();
    const revoked = service.revokeToken(game.gameId, game.tokens.organizer, 'player2');
    await settleTurns();
    const afterRevocation = service.submit(game.gameId, game.tokens.players.player2, roll('too-late')).catch((e: unknown) => e);
    const stillWorking = service.submit(game.gameId, game.tokens.players.player1, roll('still'));
    await settleTurns();
    open();
    expect((await blocker).version).toBe(2);
    expect((await revoked).version).toBe(3);
    expect(await afterRevocation).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect((await stillWorking).version).toBe(4);
  });

  it("of a tournament keeps acting as the organizer when the organizer's own token is reissued ahead of it; the old organizer token stops", async () => {
    const { service, close, open } = gatedService();
    const tournament = await service.tournaments.create({ name: 'Cup' });
    const game = await service.tournaments.createGame({ ruleset: 'dice' }, tournament.token);
    close();
    const blocker = service.submit(game.gameId, game.tokens.players.player1, roll('blocker'));
    await settleTurns();
    const reissued = service.reissueToken(game.gameId, game.tokens.organizer, 'organizer');
    await settleTurns();
    const byTournament = service.submit(game.gameId, tournament.token, roll('cup', 'player1'));
    const byOldToken = service.submit(game.gameId, game.tokens.organizer, roll('old', 'player1')).catch((e: unknown) => e);
    await settleTurns();
    open();
    await blocker;
    const { token } = await reissued;
    expect((await byTournament).commit.actor).toBe('player1');
    expect(await byOldToken).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect((await service.submit(game.gameId, token, roll('new', 'player1'))).created).toBe(true);
  });
});
