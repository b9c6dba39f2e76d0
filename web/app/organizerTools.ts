// What the organizer token can do besides commands: spectator links, players' tokens, seal, export.
// Everything is read from the server, so a reload or a fresh window shows the same tools.
import { ApiError, api, gameLink, gamePath, newCommandId, request } from './api';
import { clear, el, field, statusLine } from './dom';
import { copyLink } from './copyLink';
import { notificationsSlot } from './notificationsSlot';

interface ListedViewer {
  viewerId: string;
  label?: string;
  createdAt: string;
  revoked: boolean;
}

interface GameFacts {
  sides: string[];
  sealed: boolean;
}

export const SEAL_MEANS = 'Sealing ends the game for good: no side can send another command, and the server’s seed is revealed so that anyone can check every die.';

/** "27 Nov 2026, 19:05" in the reader's own time zone. */
export const when = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
};

export function organizerTools(gameId: string, token: string, onChange: () => void): HTMLElement {
  const status = statusLine();
  const failed = (error: unknown) => status.say(error instanceof ApiError ? `Refused (${error.status}): ${error.message}` : 'No answer from the server; try again.', 'error');
  let sealed = false;

  // Spectator links: listed from the server; a link's token is shown only in the window that made it, once.
  const label = el('input', { type: 'text', maxlength: 64, autocomplete: 'off', placeholder: 'e.g. club stream' });
  const viewers = el('ul', { class: 'viewers', 'aria-label': 'Spectator links' });
  const addViewer = el('button', { type: 'button' }, 'Create spectator link');
  const fresh = new Map<string, string>();
  let listed: ListedViewer[] = [];
  const nameOf = (v: ListedViewer, i: number) => v.label || `Spectator ${i + 1}`;
  const renderViewers = () => {
    clear(viewers);
    if (!listed.length) viewers.append(el('li', { class: 'hint' }, 'No spectator link yet.'));
    listed.forEach((v, i) => {
      const name = nameOf(v, i);
      const link = fresh.get(v.viewerId);
      const item = el('li', { class: `viewer${v.revoked ? ' revoked' : ''}`, 'data-viewer-id': v.viewerId },
        el('span', { class: 'viewer-name' }, name),
        ' ',
        el('span', { class: 'hint' }, `created ${when(v.createdAt)} · id ${v.viewerId} · ${v.revoked ? 'revoked: the link no longer works' : 'live'}`),
        link && !v.revoked ? copyLink(`Spectator link: ${name}`, link) : null,
      );
      if (!v.revoked) {
        const revoke = el('button', { type: 'button', class: 'small danger' }, `Revoke ${name}`);
        revoke.addEventListener('click', async () => {
          revoke.disabled = true;
          try {
            await api('DELETE', gamePath(gameId, `/viewers/${encodeURIComponent(v.viewerId)}`), { token });
            fresh.delete(v.viewerId);
            await loadViewers();
            status.say(`${name}: revoked; the link no longer works.`, 'ok');
            addViewer.focus();
          } catch (error) {
            revoke.disabled = false;
            failed(error);
          }
        });
        item.append(' ', revoke);
      }
      viewers.append(item);
    });
  };
  const loadViewers = async () => {
    listed = (await api<{ viewers: ListedViewer[] }>('GET', gamePath(gameId, '/viewers'), { token })).viewers;
    renderViewers();
  };
  addViewer.addEventListener('click', async () => {
    try {
      const body = label.value.trim() ? { label: label.value.trim() } : {};
      const viewer = await api<{ viewerId: string; token: string }>('POST', gamePath(gameId, '/viewers'), { token, body });
      fresh.set(viewer.viewerId, gameLink(gameId, viewer.token));
      await loadViewers();
      const index = listed.findIndex((v) => v.viewerId === viewer.viewerId);
      label.value = '';
      status.say(`Spectator link created for ${index < 0 ? 'a spectator' : nameOf(listed[index], index)}: copy it now, it is shown only here.`, 'ok');
    } catch (error) {
      failed(error);
    }
  });

  // A side's token: a new one (the old stops working), or none until reissued.
  const side = el('select', {});
  const reissue = el('button', { type: 'button' }, 'Reissue the side’s token');
  const revokeSide = el('button', { type: 'button', class: 'danger' }, 'Revoke the side’s token');
  const newLinks = el('ul', { class: 'links', 'aria-label': 'New player links' });
  reissue.addEventListener('click', async () => {
    const role = side.value;
    try {
      const reply = await api<{ token: string; commit: { seq: number } }>('POST', gamePath(gameId, `/tokens/${encodeURIComponent(role)}`), { token });
      clear(newLinks);
      newLinks.append(el('li', {}, el('p', { class: 'warning' }, `The new link for ${role} is shown this once: send it to the player now. The old link stopped working (#${reply.commit.seq}).`), copyLink(`New player link: ${role}`, gameLink(gameId, reply.token))));
      status.say(`New token for ${role}; the old one no longer works.`, 'ok');
      newLinks.querySelector<HTMLInputElement>('input')?.focus();
      onChange();
    } catch (error) {
      failed(error);
    }
  });
  revokeSide.addEventListener('click', async () => {
    const role = side.value;
    try {
      const reply = await api<{ commit: { seq: number } }>('DELETE', gamePath(gameId, `/tokens/${encodeURIComponent(role)}`), { token });
      clear(newLinks);
      status.say(`${role}’s token revoked at #${reply.commit.seq}: their link no longer works until you reissue it. You can still act for ${role}.`, 'ok');
      onChange();
    } catch (error) {
      failed(error);
    }
  });

  // Sealing is irreversible: it asks first, in a dialog the keyboard can answer (Escape cancels).
  const seal = el('button', { type: 'button', class: 'danger' }, 'Seal the game');
  const confirmSeal = el('button', { type: 'button', class: 'danger' }, 'Seal it now');
  const keepPlaying = el('button', { type: 'button', autofocus: true }, 'Keep playing');
  const dialog = el('dialog', { class: 'confirm', 'aria-labelledby': 'seal-title', 'aria-describedby': 'seal-means' },
    el('h2', { id: 'seal-title' }, 'Seal the game?'),
    el('p', { id: 'seal-means' }, SEAL_MEANS),
    el('div', { class: 'row' }, keepPlaying, confirmSeal),
  );
  const sealedNote = el('p', { class: 'hint', 'data-sealed-note': '' });
  const showSealed = () => {
    sealed = true;
    for (const control of [seal, reissue, revokeSide, side]) control.disabled = true;
    sealedNote.textContent = 'This game is sealed: it takes no more commands, and its tokens can no longer change.';
  };
  seal.addEventListener('click', () => {
    if (!sealed) dialog.showModal();
  });
  keepPlaying.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    if (!sealed) seal.focus();
  });
  // One commandId for every try: a seal stored but answered with a 503 is answered, when tried again, as stored.
  const sealCommandId = newCommandId();
  confirmSeal.addEventListener('click', async () => {
    confirmSeal.disabled = true;
    try {
      const reply = await api<{ commit: { seq: number } }>('POST', gamePath(gameId, '/commands'), { token, body: { commandId: sealCommandId, type: 'Seal', payload: {} } });
      showSealed();
      dialog.close();
      status.say(`Sealed at #${reply.commit.seq}: the server seed is revealed, every die can be checked.`, 'ok');
      download.focus();
      onChange();
    } catch (error) {
      dialog.close();
      failed(error);
    } finally {
      confirmSeal.disabled = false;
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

  // Until the game is read, the side list is empty: nothing to reissue yet.
  for (const control of [reissue, revokeSide]) control.disabled = true;
  void Promise.all([api<GameFacts>('GET', gamePath(gameId), { token }), loadViewers()])
    .then(([game]) => {
      side.append(...game.sides.map((s) => el('option', { value: s }, s)));
      if (game.sealed) showSealed();
      else for (const control of [reissue, revokeSide]) control.disabled = false;
    })
    .catch(failed);

  const tools = el(
    'section',
    { class: 'organizer-tools', 'aria-labelledby': 'organizer-tools-title' },
    el('h2', { id: 'organizer-tools-title' }, 'Organizer'),
    el('h3', {}, 'Spectator links'),
    el('p', { class: 'hint' }, 'A spectator link reads the game live and cannot send commands; revoke it and it stops working at once, from this window or any other.'),
    el('div', { class: 'row' }, field('Label (optional)', label), addViewer),
    viewers,
    el('h3', {}, 'Players’ links'),
    el('p', { class: 'hint' }, 'A player lost their link, or it leaked? Reissue their token: the old link stops working and the new one is shown once. Revoke it to lock the side out until you reissue it.'),
    el('div', { class: 'row' }, field('Side', side), reissue, revokeSide),
    newLinks,
    el('h3', {}, 'End and export'),
    el('div', { class: 'row' }, seal, download),
    sealedNote,
    dialog,
    status,
  );
  // Beside the tools, not in them: its own section, with its own status line.
  return el('div', {}, tools, notificationsSlot({ gameId, token, role: 'organizer' }));
}
