import type { GameService } from '../application/gameService';
import { consoleObserver, type Observer } from './observe';
import { pathOf, queryOf } from './parameters';
import { bearerToken, json, noContent } from './respond';
import { confirmPage, donePage, unsubscribePage } from '../notify/email/pages';
import type { ParsedEvent } from './middleware';
import { OPERATIONS } from './operations';
import { route } from './route';

const CODE = OPERATIONS.find((o) => o.operationId === 'confirmPage')!.parameters!.filter((p) => p.in === 'query');

/** The routes of subscriptions (gameSubscriptions.ts) and the pages of an e-mail's confirm and unsubscribe links. */
export function subscriptionHandlers(service: () => Promise<GameService>, observer: Observer = consoleObserver) {
  const gameIdOf = (event: ParsedEvent) => pathOf(event, 'id');
  const codeOf = (event: ParsedEvent) => (queryOf(event, CODE) as { code?: string }).code ?? '';
  return {
    subscribe: route(async (event) => json(201, await (await service()).subscriptions.subscribe(gameIdOf(event), bearerToken(event), event.parsedBody)), observer),
    listSubscriptions: route(async (event) => json(200, await (await service()).subscriptions.list(gameIdOf(event), bearerToken(event))), observer),
    unsubscribe: route(async (event) => {
      await (await service()).subscriptions.unsubscribe(gameIdOf(event), bearerToken(event), pathOf(event, 'subscriptionId'));
      return noContent();
    }, observer),
    subscribeTournament: route(async (event) => json(201, await (await service()).subscriptions.subscribeTournament(gameIdOf(event), bearerToken(event), event.parsedBody)), observer),
    listTournamentSubscriptions: route(async (event) => json(200, await (await service()).subscriptions.listTournament(gameIdOf(event), bearerToken(event))), observer),
    unsubscribeTournament: route(async (event) => {
      await (await service()).subscriptions.unsubscribeTournament(gameIdOf(event), bearerToken(event), pathOf(event, 'subscriptionId'));
      return noContent();
    }, observer),
    // GET changes nothing: a mail scanner that follows the link meets a button.
    confirmPage: route(async (event) => {
      const game = await (await service()).subscriptions.linkFor(pathOf(event, 'subscriptionId'), codeOf(event));
      return game ? confirmPage(game) : donePage('unknown-link');
    }, observer),
    unsubscribePage: route(async (event) => {
      const game = await (await service()).subscriptions.linkFor(pathOf(event, 'subscriptionId'), codeOf(event));
      return game ? unsubscribePage(game) : donePage('unknown-link');
    }, observer),
    confirmSubscription: route(
      async (event) => {
        const game = await (await service()).subscriptions.confirm(pathOf(event, 'subscriptionId'), codeOf(event));
        return game ? donePage('confirmed', game) : donePage('unknown-link');
      },
      observer,
      { ignoresBody: true },
    ),
    unsubscribeByLink: route(
      async (event) => {
        const game = await (await service()).subscriptions.unsubscribeByCode(pathOf(event, 'subscriptionId'), codeOf(event));
        return game ? donePage('unsubscribed', game) : donePage('unknown-link');
      },
      observer,
      { ignoresBody: true },
    ),
  };
}
