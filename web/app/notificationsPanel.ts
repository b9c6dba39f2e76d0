// "Notifications" on the timeline and the organizer's tools (docs/notifications.md): subscribe
// a webhook, a Discord or Slack channel or an e-mail address to the game's commits; the list
// (a side sees its own, the organizer all), with what could not be delivered; delete.
// A webhook's signing secret is in the answer to the subscribe only: shown here once.
import { ApiError, api, gamePath } from './api';
import { copyLink } from './copyLink';
import { clear, el, field, statusLine, uid } from './dom';
import { whenText as when } from './commitRow';

type Kind = 'webhook' | 'discord' | 'slack' | 'email';
type Digest = 'commit' | 'turn' | { everyMinutes: number };

interface Listed {
  subscriptionId: string;
  kind: Kind;
  owner: string;
  target: string;
  digest?: Digest;
  status: string;
  createdAt: string;
  deadLetters?: { seq: number; at: string; error: string }[];
}

const KIND_NAMES: Record<Kind, string> = { webhook: 'Webhook', discord: 'Discord', slack: 'Slack', email: 'E-mail' };
const URL_LABELS: Record<Kind, string> = { webhook: 'Webhook URL', discord: 'Discord webhook URL', slack: 'Slack webhook URL', email: '' };
const URL_HINTS: Record<Kind, string> = {
  webhook: 'https only. Each commit is POSTed as JSON, signed per Standard Webhooks with the secret shown once below.',
  discord: 'From the channel’s settings: Integrations, Webhooks, Copy Webhook URL.',
  slack: 'The incoming-webhook URL of your Slack app (on hooks.slack.com).',
  email: '',
};

const kindName = (kind: string) => (Object.hasOwn(KIND_NAMES, kind) ? KIND_NAMES[kind as Kind] : kind);

function digestWords(digest: Digest | undefined): string {
  if (digest === 'turn') return 'one mail per turn';
  if (typeof digest === 'object' && digest && typeof digest.everyMinutes === 'number') return `one mail every ${digest.everyMinutes} min at most`;
  return 'each commit';
}

function statusWords(status: string): string {
  if (status === 'confirming') return 'waiting for confirmation: nothing is mailed until the recipient follows the link in the confirmation mail';
  if (status === 'active') return 'active';
  return status;
}

export interface NotificationsOptions {
  gameId: string;
  token: string;
  /** 'organizer' sees and may delete every subscription; a side its own. */
  role: string;
}

export function notificationsPanel({ gameId, token, role }: NotificationsOptions): HTMLElement {
  const status = statusLine();
  const refused = (error: unknown) => (error instanceof ApiError ? `Refused (${error.status}): ${error.message}` : 'No answer from the server; try again.');

  // A field and the line that says what is wrong with it, read with it (aria-describedby).
  const withError = (wrapper: HTMLElement, control: HTMLElement) => {
    const error = el('small', { class: 'field-error', id: uid('error'), 'aria-live': 'polite' });
    control.setAttribute('aria-describedby', [control.getAttribute('aria-describedby'), error.id].filter(Boolean).join(' '));
    wrapper.append(error);
    return {
      wrapper,
      say(text: string) {
        error.textContent = text;
        if (text) control.setAttribute('aria-invalid', 'true');
        else control.removeAttribute('aria-invalid');
      },
    };
  };

  const kind = el('select', {}, ...(Object.keys(KIND_NAMES) as Kind[]).map((k) => el('option', { value: k }, KIND_NAMES[k])));
  const url = el('input', { type: 'url', autocomplete: 'off', spellcheck: 'false', maxlength: 2000, placeholder: 'https://' });
  const address = el('input', { type: 'email', autocomplete: 'email', maxlength: 320 });
  const digest = el('select', {},
    el('option', { value: 'commit' }, 'One mail per commit'),
    el('option', { value: 'turn' }, 'One mail per turn (a digest when the side to move changes)'),
    el('option', { value: 'every' }, 'A digest every N minutes'),
  );
  const minutes = el('input', { type: 'number', min: 5, max: 1440, step: 1, value: 60 });
  const fields = {
    kind: withError(field('Send to', kind), kind),
    url: withError(field(URL_LABELS.webhook, url, URL_HINTS.webhook), url),
    address: withError(field('E-mail address', address, 'The address gets a mail with a link to confirm first; nothing else is sent until it is followed. Every mail has an unsubscribe link.'), address),
    digest: withError(field('How often', digest), digest),
    minutes: withError(field('Minutes between mails (5 to 1440)', minutes), minutes),
  };
  const subscribe = el('button', { type: 'submit' }, 'Subscribe');
  const secretSlot = el('div', { class: 'secret-once' });
  const form = el('form', { class: 'subscribe', 'aria-label': 'Subscribe to this game', novalidate: true },
    fields.kind.wrapper, fields.url.wrapper, fields.address.wrapper, fields.digest.wrapper, fields.minutes.wrapper, subscribe);
  const showKind = () => {
    const chosen = kind.value as Kind;
    const mail = chosen === 'email';
    fields.url.wrapper.hidden = mail;
    fields.address.wrapper.hidden = fields.digest.wrapper.hidden = !mail;
    fields.minutes.wrapper.hidden = !mail || digest.value !== 'every';
    if (!mail) {
      fields.url.wrapper.querySelector('label')!.textContent = URL_LABELS[chosen];
      fields.url.wrapper.querySelector('small.hint')!.textContent = URL_HINTS[chosen];
    }
  };
  kind.addEventListener('change', showKind);
  digest.addEventListener('change', showKind);
  showKind();

  const clearErrors = () => Object.values(fields).forEach((f) => f.say(''));
  /** The API's 400 names each field (details.issues[].field): each problem goes next to its field. */
  const placeErrors = (error: ApiError): boolean => {
    const issues = Array.isArray(error.details?.issues) ? (error.details.issues as { field?: unknown; message?: unknown }[]) : [];
    let placed = false;
    for (const issue of issues) {
      if (typeof issue.field !== 'string' || typeof issue.message !== 'string') continue;
      const path = issue.field.replace(/^body\./, '');
      const target = path.startsWith('digest.') ? fields.minutes : path === 'url' ? fields.url : path === 'address' ? fields.address : path === 'digest' ? fields.digest : path === 'kind' ? fields.kind : undefined;
      if (!target || target.wrapper.hidden) continue;
      target.say(issue.message);
      placed = true;
    }
    return placed;
  };
  const firstInvalid = () => form.querySelector<HTMLElement>('[aria-invalid="true"]');

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clearErrors();
    clear(secretSlot);
    const chosen = kind.value as Kind;
    const body: Record<string, unknown> = { kind: chosen };
    if (chosen === 'email') {
      if (!address.value.trim()) fields.address.say('Enter the e-mail address to notify.');
      body.address = address.value.trim();
      if (digest.value === 'every') {
        const n = Number(minutes.value);
        if (!Number.isInteger(n) || n < 5 || n > 1440) fields.minutes.say('A whole number of minutes from 5 to 1440, please.');
        body.digest = { everyMinutes: n };
      } else body.digest = digest.value;
    } else {
      if (!url.value.trim()) fields.url.say(`Enter the ${URL_LABELS[chosen]}.`);
      body.url = url.value.trim();
    }
    if (firstInvalid()) {
      status.say('Nothing was sent: see the field marked above.', 'error');
      return firstInvalid()?.focus();
    }
    subscribe.disabled = true;
    status.say('Subscribing…');
    try {
      const reply = await api<{ subscriptionId: string; secret?: string; status?: string }>('POST', gamePath(gameId, '/subscriptions'), { token, body });
      url.value = '';
      address.value = '';
      if (typeof reply.secret === 'string') {
        secretSlot.append(
          el('p', { class: 'warning' }, 'The signing secret of this webhook is shown once, here: copy it now into your receiver, which checks each request’s webhook-signature with it. It is never shown again; lost, delete the subscription and subscribe again.'),
          copyLink('Signing secret (shown once)', reply.secret),
        );
      }
      status.say(
        reply.status === 'confirming'
          ? `Almost done: a confirmation mail went to ${String(body.address)}. Nothing else is mailed until the link in it is followed.`
          : `Subscribed: ${kindName(chosen)} gets every new commit of this game.`,
        'ok',
      );
      await load();
      secretSlot.querySelector<HTMLInputElement>('input')?.focus();
    } catch (error) {
      if (error instanceof ApiError && placeErrors(error)) {
        status.say('Refused: see the field marked above.', 'error');
        firstInvalid()?.focus();
      } else status.say(refused(error), 'error');
    } finally {
      subscribe.disabled = false;
    }
  });

  // The list; deleting asks first, in a dialog the keyboard answers (Escape keeps it).
  const list = el('ul', { class: 'subscriptions', 'aria-label': 'Subscriptions' });
  const titleId = uid('delete-title');
  const meansId = uid('delete-means');
  const means = el('p', { id: meansId });
  const keep = el('button', { type: 'button', autofocus: true }, 'Keep it');
  const confirmDelete = el('button', { type: 'button', class: 'danger' }, 'Delete it');
  const dialog = el('dialog', { class: 'confirm', 'aria-labelledby': titleId, 'aria-describedby': meansId },
    el('h2', { id: titleId }, 'Stop these notifications?'), means, el('div', { class: 'row' }, keep, confirmDelete));
  let deleting: { item: Listed; name: string; opener: HTMLButtonElement } | undefined;
  keep.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    if (deleting && deleting.opener.isConnected) deleting.opener.focus();
    deleting = undefined;
  });
  confirmDelete.addEventListener('click', async () => {
    if (!deleting) return;
    const { item, name } = deleting;
    confirmDelete.disabled = true;
    try {
      await api('DELETE', gamePath(gameId, `/subscriptions/${encodeURIComponent(item.subscriptionId)}`), { token });
      dialog.close();
      status.say(`Deleted: ${name} gets no more notifications from this game.`, 'ok');
      await load();
      kind.focus();
    } catch (error) {
      dialog.close();
      status.say(refused(error), 'error');
    } finally {
      confirmDelete.disabled = false;
    }
  });

  const render = (items: Listed[]) => {
    clear(list);
    if (!items.length) list.append(el('li', { class: 'hint' }, 'No subscription yet.'));
    for (const item of items) {
      const name = `${kindName(item.kind)} to ${item.target}`;
      const dead = Array.isArray(item.deadLetters) ? item.deadLetters : [];
      const remove = el('button', { type: 'button', class: 'small danger', 'aria-label': `Delete ${name}` }, 'Delete');
      remove.addEventListener('click', () => {
        deleting = { item, name, opener: remove };
        means.textContent = `${name} will get nothing more from this game. Subscribe again to resume.`;
        dialog.showModal();
      });
      list.append(
        el('li', { 'data-subscription-id': item.subscriptionId, 'data-status': item.status },
          el('strong', {}, name), ' ', remove,
          el('p', { class: 'hint' }, `${item.kind === 'email' ? digestWords(item.digest) : 'each commit'} · ${statusWords(item.status)} · created ${when(item.createdAt)} · by ${item.owner}`),
          dead.length
            ? el('div', { class: 'dead' },
                el('p', {}, `Not delivered after every retry (${dead.length}):`),
                el('ul', { class: 'dead-letters', 'aria-label': `Undelivered commits for ${name}` }, ...dead.map((d) => el('li', {}, `#${d.seq} at ${when(d.at)}: ${d.error}`))))
            : null,
        ),
      );
    }
  };
  const load = async () => {
    const reply = await api<{ subscriptions: Listed[] }>('GET', gamePath(gameId, '/subscriptions'), { token });
    render(Array.isArray(reply?.subscriptions) ? reply.subscriptions : []);
  };
  const refresh = el('button', { type: 'button', class: 'small' }, 'Refresh the list');
  refresh.addEventListener('click', () => void load().then(() => status.say('List read again.', 'ok'), (error) => status.say(refused(error), 'error')));
  void load().catch((error) => status.say(error instanceof ApiError && error.status === 404 ? 'This server does not send notifications.' : refused(error), 'error'));

  const headingId = uid('notifications-title');
  return el('section', { class: 'notifications', 'aria-labelledby': headingId },
    el('h2', { id: headingId }, 'Notifications'),
    el('p', { class: 'hint' }, 'Be told of each commit without keeping this page open: a webhook, a Discord or Slack channel, or e-mail. ',
      role === 'organizer' ? 'You see every subscription of this game.' : 'You see your own subscriptions; the organizer sees them all.'),
    form, secretSlot, status,
    el('h3', {}, 'Subscriptions'), refresh, list, dialog);
}
