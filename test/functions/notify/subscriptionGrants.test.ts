import { afterEach, describe, expect, it } from 'vitest';
import { ApplicationError } from '../../../functions/application/errors';
import { GameService } from '../../../functions/application/gameService';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { composeNotifications } from '../../../functions/composeNotifications';
import { MemoryEventStore } from '../../../functions/store/memoryStore';
import { MemorySubscriptions } from '../../../functions/store/memorySubscriptions';
import { startReceiver } from '../../support/webhookReceiver';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const roll = (commandId: string) => ({ commandId, type: 'Roll', payload: { dice: '1d6', purpose: commandId } });

/** A service with notifications on memory stores; `delivering: false` leaves the engine idle, so only the routes act. */
function service(options: { delivering: boolean }) {
  const store = new MemoryEventStore();
  const vault = aesSeedVault(newSeedKey());
  const confirmationsSent: string[] = [];
  const { engine, subscriptions } = composeNotifications({
    store,
    subscriptions: new MemorySubscriptions(),
    vault,
    publicUrl: () => 'https://arbiter.example.org',
    allowLoopback: true,
    email: { channel: { deliver: async () => undefined }, confirmations: { send: async (address) => void confirmationsSent.push(address) } },
    engine: { log: () => undefined },
  });
  const games = new GameService({ store, signer: signerFromKey(generateSigningKey()), seedVault: vault, subscriptions });
  if (options.delivering) games.onCommit((commit) => engine.stored(commit.gameId));
  closers.push(() => engine.close());
  return { games, engine, confirmationsSent };
}

async function receiver() {
  const started = await startReceiver();
  closers.push(started.close);
  return started;
}

const seqsOf = (received: { body: string }[]) => received.flatMap((r) => JSON.parse(r.body).data.notices.map((n: { seq: number }) => n.seq));
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error as ApplicationError,
  );

describe("a subscription lasts while its owner's token does", () => {
  it('a side revoked is told nothing more: the next roll reaches the organizer, not the revoked side', async () => {
    const { games, engine } = service({ delivering: true });
    const game = await games.createGame({ ruleset: 'dice' });
    const [organizerHook, player1Hook] = [await receiver(), await receiver()];
    await games.subscriptions!.subscribe(game.gameId, game.tokens.organizer, { kind: 'webhook', url: `${organizerHook.url}/org` });
    await games.subscriptions!.subscribe(game.gameId, game.tokens.players.player1, { kind: 'webhook', url: `${player1Hook.url}/p1` });
    await games.submit(game.gameId, game.tokens.players.player1, roll('before'));
    await expect.poll(() => seqsOf(player1Hook.received)).toEqual([2]);

    await games.revokeToken(game.gameId, game.tokens.organizer, 'player1');
    await games.submit(game.gameId, game.tokens.players.player2, roll('after'));
    await expect.poll(() => seqsOf(organizerHook.received)).toEqual([2, 3, 4]);
    await engine.catchUpGame(game.gameId);
    expect(seqsOf(player1Hook.received)).toEqual([2]);
    expect((await games.subscriptions!.list(game.gameId, game.tokens.organizer)).subscriptions.map((s) => s.owner)).toEqual(['organizer']);
  });

  it("a side's token reissued: the new holder neither lists nor ends the previous holder's subscriptions, which end", async () => {
    const { games } = service({ delivering: false });
    const game = await games.createGame({ ruleset: 'dice' });
    const hook = await receiver();
    const old = await games.subscriptions!.subscribe(game.gameId, game.tokens.players.player1, { kind: 'webhook', url: `${hook.url}/old` });
    const { token } = await games.reissueToken(game.gameId, game.tokens.organizer, 'player1');

    expect((await games.subscriptions!.list(game.gameId, token)).subscriptions).toEqual([]);
    expect(await refusal(games.subscriptions!.unsubscribe(game.gameId, token, old.subscriptionId))).toMatchObject({ status: 404 });
    expect((await games.subscriptions!.list(game.gameId, game.tokens.organizer)).subscriptions).toEqual([]);
    const mine = await games.subscriptions!.subscribe(game.gameId, token, { kind: 'webhook', url: `${hook.url}/new` });
    expect((await games.subscriptions!.list(game.gameId, token)).subscriptions.map((s) => s.subscriptionId)).toEqual([mine.subscriptionId]);
  });

  it("the organizer's token reissued: the old organizer's subscriptions end, the sides' stay", async () => {
    const { games } = service({ delivering: false });
    const game = await games.createGame({ ruleset: 'dice' });
    const hook = await receiver();
    await games.subscriptions!.subscribe(game.gameId, game.tokens.organizer, { kind: 'webhook', url: `${hook.url}/org` });
    const side = await games.subscriptions!.subscribe(game.gameId, game.tokens.players.player2, { kind: 'webhook', url: `${hook.url}/p2` });
    const { token } = await games.reissueToken(game.gameId, game.tokens.organizer, 'organizer');
    expect((await games.subscriptions!.list(game.gameId, token)).subscriptions.map((s) => s.subscriptionId)).toEqual([side.subscriptionId]);
  });
});

describe('quotas', () => {
  it('one owner may have 5 subscriptions in a game, even asked for all at once; another owner still may subscribe', async () => {
    const { games } = service({ delivering: false });
    const game = await games.createGame({ ruleset: 'dice' });
    const hook = await receiver();
    const asked = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => games.subscriptions!.subscribe(game.gameId, game.tokens.players.player1, { kind: 'webhook', url: `${hook.url}/${i}` })),
    );
    expect(asked.filter((a) => a.status === 'fulfilled')).toHaveLength(5);
    const refused = asked.find((a) => a.status === 'rejected')!.reason as ApplicationError;
    expect(refused).toMatchObject({ status: 422, code: 'subscription_refused', message: expect.stringContaining('You already have 5 subscriptions in this game') });
    await expect(games.subscriptions!.subscribe(game.gameId, game.tokens.players.player2, { kind: 'webhook', url: `${hook.url}/p2` })).resolves.toMatchObject({ status: 'active' });
  });
});

describe('confirmation mails', () => {
  it('go to one address at most 3 times in 24 hours across games, and never while one waits in the same game', async () => {
    const { games, confirmationsSent } = service({ delivering: false });
    const [first, second, third] = [await games.createGame({ ruleset: 'dice' }), await games.createGame({ ruleset: 'dice' }), await games.createGame({ ruleset: 'dice' })];
    const organizerOf = new Map([first, second, third].map((game) => [game.gameId, game.tokens.organizer]));
    const subscribe = (gameId: string, address: string) => games.subscriptions!.subscribe(gameId, organizerOf.get(gameId), { kind: 'email', address });

    const waiting = await subscribe(first.gameId, 'anna@example.org');
    expect(await refusal(subscribe(first.gameId, 'Anna@Example.org'))).toMatchObject({ status: 422, code: 'subscription_refused', message: expect.stringContaining('already waiting to be confirmed') });
    await games.subscriptions!.unsubscribe(first.gameId, first.tokens.organizer, waiting.subscriptionId);
    await subscribe(first.gameId, 'ANNA@example.org');
    await subscribe(second.gameId, 'anna@example.org');
    expect(confirmationsSent).toHaveLength(3);

    const fourth = await refusal(subscribe(third.gameId, 'anna@EXAMPLE.org'));
    expect(fourth).toMatchObject({ status: 422, code: 'subscription_refused', message: expect.stringContaining('3 confirmation mails in the last 24 hours') });
    expect(confirmationsSent).toHaveLength(3);
    expect((await games.subscriptions!.list(third.gameId, third.tokens.organizer)).subscriptions).toEqual([]);
    await expect(subscribe(third.gameId, 'bruno@example.org')).resolves.toMatchObject({ status: 'confirming' });
  });
});
