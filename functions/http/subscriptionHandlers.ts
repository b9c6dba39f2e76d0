import type { GameService } from '../application/gameService';
import { consoleObserver, type Observer } from './observe';
import { pathOf, queryOf } from './parameters';
import { answer, bearerToken, json, noContent } from './respond';
import type { ParsedEvent } from './middleware';
import { OPERATIONS } from './operations';
import { route } from './route';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page of its own, with no script and no style from anywhere: it posts a form to itself, nothing else. */
function page(title: string, paragraph: string, button?: { label: string; code: string }) {
  const form = button ? `<form method="post" action="?code=${escapeHtml(encodeURIComponent(button.code))}"><button type="submit">${escapeHtml(button.label)}</button></form>` : '';
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)} — Arbiter</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(paragraph)}</p>${form}</main></body></html>`;
  return answer(200, 'text/html; charset=utf-8', body, { 'content-security-policy': "default-src 'none'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'", 'referrer-policy': 'no-referrer' });
}

const dead = () => page('This link no longer works', 'The subscription was ended, or the link is not complete.');

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
    confirmPage: route(
      async (event) =>
        (await (await service()).subscriptions.linkWorks(pathOf(event, 'subscriptionId'), codeOf(event)))
          ? page('Confirm your subscription', 'Press the button to receive mails about this game.', { label: 'Confirm', code: codeOf(event) })
          : dead(),
      observer,
    ),
    unsubscribePage: route(
      async (event) =>
        (await (await service()).subscriptions.linkWorks(pathOf(event, 'subscriptionId'), codeOf(event)))
          ? page('Unsubscribe', 'Press the button to receive no more mails about this game.', { label: 'Unsubscribe', code: codeOf(event) })
          : page('Already unsubscribed', 'This subscription was ended already, or the link is not complete.'),
      observer,
    ),
    confirmSubscription: route(
      async (event) =>
        (await (await service()).subscriptions.confirm(pathOf(event, 'subscriptionId'), codeOf(event)))
          ? page('Subscription confirmed', 'You will receive mails about this game. Every mail has a link to unsubscribe.')
          : dead(),
      observer,
      { ignoresBody: true },
    ),
    unsubscribeByLink: route(
      async (event) =>
        (await (await service()).subscriptions.unsubscribeByCode(pathOf(event, 'subscriptionId'), codeOf(event)))
          ? page('Unsubscribed', 'You will receive no more mails about this game.')
          : page('Already unsubscribed', 'This subscription was ended already, or the link is not complete.'),
      observer,
      { ignoresBody: true },
    ),
  };
}
