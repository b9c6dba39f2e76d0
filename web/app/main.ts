// The web app: hash routes, so tokens stay in the fragment and never reach a server log.
//   #/organize (default)           create a game, links, spectators, seal, export
//   #/games/{gameId}?token={token} the live timeline (and the command box for players)
//   #/verify                       verify an export in the browser
//   #/tournaments[/{id}?token=…]   create a tournament; its games, export and verification
//   #/stats                        dice statistics of all sealed games
import './styles.css';
import { parseGameLink } from './api';
import { el } from './dom';
import { organizerPage } from './organizerPage';
import { timelinePage } from './timelinePage';

let dispose: () => void = () => {};

/**
 * A page loaded when it is opened (a chunk of its own, web/build.ts), to keep the first visit
 * under its size limit; left for another route before it arrived, it never opens.
 */
function lazyPage<P>(root: HTMLElement, load: () => Promise<P>, open: (page: P) => () => void): () => void {
  let left = false;
  let close: () => void = () => {};
  load().then(
    (page) => {
      if (!left) close = open(page);
    },
    () => {
      if (!left) root.replaceChildren(el('h1', {}, 'This page did not load'), el('p', {}, 'The connection to the server failed: reload the page to try again.'));
    },
  );
  return () => {
    left = true;
    close();
  };
}

function route(): void {
  const root = document.getElementById('app')!;
  dispose();
  const hash = location.hash.replace(/^#/, '') || '/organize';
  const [path, query = ''] = hash.split('?');
  const game = parseGameLink(hash);
  for (const a of Array.from(document.querySelectorAll<HTMLAnchorElement>('header.site a'))) {
    if (a.getAttribute('href') === `#${path}` && !a.classList.contains('brand')) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  if (game) {
    document.title = 'Game timeline — Arbiter';
    dispose = timelinePage(root, game.gameId, game.token);
  } else if (path === '/verify') {
    document.title = 'Verify an export — Arbiter';
    dispose = lazyPage(root, () => import('./verifyPage').then((m) => m.verifyPage), (page) => page(root, new URLSearchParams(query)));
  } else if (path === '/tournaments' || path.startsWith('/tournaments/')) {
    document.title = 'Tournament — Arbiter';
    dispose = lazyPage(root, () => import('./tournamentPage').then((m) => m.tournamentPage), (page) => page(root, path, new URLSearchParams(query)));
  } else if (path === '/stats') {
    document.title = 'Dice statistics — Arbiter';
    dispose = lazyPage(root, () => import('./statsPage').then((m) => m.statsPage), (page) => page(root));
  } else if (path === '/organize' || path === '/') {
    document.title = 'Create a game — Arbiter';
    dispose = organizerPage(root);
  } else {
    dispose = () => {};
    root.replaceChildren(el('h1', {}, 'No such page'), el('p', {}, el('a', { href: '#/organize' }, 'Create a game'), ' or ', el('a', { href: '#/verify' }, 'verify an export'), '.'));
  }
}

window.addEventListener('hashchange', route);
route();
