// The notifications panel, loaded when a page shows it (a chunk of its own, web/build.ts):
// it keeps the first visit of the web app under its size limit.
import { el } from './dom';
import type { NotificationsOptions } from './notificationsPanel';

export function notificationsSlot(options: NotificationsOptions): HTMLElement {
  const slot = el('div', { class: 'notifications-slot' });
  import('./notificationsPanel')
    .then(({ notificationsPanel }) => slot.replaceChildren(notificationsPanel(options)))
    .catch(() => slot.replaceChildren(el('p', { class: 'hint', role: 'status' }, 'The notifications panel could not be loaded; reload the page to try again.')));
  return slot;
}
