// What the organizer token can do besides commands: spectator links, seal, export.
import { ApiError, api, gameLink, gamePath, newCommandId, request } from './api';
import { el, field, statusLine } from './dom';
import { copyLink } from './copyLink';

export function organizerTools(gameId: string, token: string, onChange: () => void): HTMLElement {
  const status = statusLine();
  const failed = (error: unknown) => status.say(error instanceof ApiError ? `Refused (${error.status}): ${error.message}` : 'No answer from the server; try again.', 'error');

  const label = el('input', { type: 'text', maxlength: 64, autocomplete: 'off', placeholder: 'e.g. club stream' });
  const viewers = el('ul', { class: 'viewers', 'aria-label': 'Spectator links' });
  const addViewer = el('button', { type: 'button' }, 'Create spectator link');
  addViewer.addEventListener('click', async () => {
    try {
      const body = label.value.trim() ? { label: label.value.trim() } : {};
      const viewer = await api<{ viewerId: string; token: string }>('POST', gamePath(gameId, '/viewers'), { token, body });
      const name = label.value.trim() || `Spectator ${viewers.children.length + 1}`;
      const revoke = el('button', { type: 'button', class: 'small danger' }, `Revoke ${name}`);
      const item = el('li', { class: 'viewer' }, copyLink(`Spectator link: ${name}`, gameLink(gameId, viewer.token)), revoke);
      revoke.addEventListener('click', async () => {
        try {
          await api('DELETE', gamePath(gameId, `/viewers/${encodeURIComponent(viewer.viewerId)}`), { token });
          item.classList.add('revoked');
          item.querySelector('input')!.value = 'revoked';
          revoke.remove();
          status.say(`${name}: revoked; the link no longer works.`, 'ok');
        } catch (error) {
          failed(error);
        }
      });
      viewers.append(item);
      label.value = '';
      status.say(`Spectator link created for ${name}.`, 'ok');
    } catch (error) {
      failed(error);
    }
  });

  const seal = el('button', { type: 'button', class: 'danger' }, 'Seal the game');
  seal.addEventListener('click', async () => {
    try {
      const reply = await api<{ commit: { seq: number } }>('POST', gamePath(gameId, '/commands'), { token, body: { commandId: newCommandId(), type: 'Seal', payload: {} } });
      status.say(`Sealed at #${reply.commit.seq}: the server seed is revealed, every die can be checked.`, 'ok');
      onChange();
    } catch (error) {
      failed(error);
    }
  });

  const download = el('button', { type: 'button' }, 'Download the export');
  download.addEventListener('click', async () => {
    try {
      const response = await request('GET', gamePath(gameId, '/export'), { token });
      if (!response.ok) throw new ApiError(response.status, 'http_error', `The server answered ${response.status}.`);
      const url = URL.createObjectURL(new Blob([await response.text()], { type: 'application/json' }));
      const a = el('a', { href: url, download: `${gameId}.json`, hidden: true });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      status.say(`Export downloaded as ${gameId}.json.`, 'ok');
    } catch (error) {
      failed(error);
    }
  });

  return el(
    'section',
    { class: 'organizer-tools', 'aria-labelledby': 'organizer-tools-title' },
    el('h2', { id: 'organizer-tools-title' }, 'Organizer'),
    el('h3', {}, 'Spectator links'),
    el('p', { class: 'hint' }, 'A spectator link reads the game live and cannot send commands; revoke it and it stops working at once.'),
    el('div', { class: 'row' }, field('Label (optional)', label), addViewer),
    viewers,
    el('h3', {}, 'End and export'),
    el('div', { class: 'row' }, seal, download),
    status,
  );
}
