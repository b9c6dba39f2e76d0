// #/stats: the dice of every sealed game that did not opt out, by die size (GET /stats).
import type { PublicStats } from '../../domain/stats/publicStats';
import { ApiError, api } from './api';
import { clear, el, statusLine } from './dom';
import { dieFiguresView, STATS_PRIMER } from './statsView';

export function statsPage(root: HTMLElement): () => void {
  const stop = new AbortController();
  const status = statusLine();
  const list = el('div', { class: 'public-stats' });
  clear(root);
  root.append(
    el('h1', {}, 'Dice statistics of all sealed games'),
    el('p', {}, 'Every die rolled in sealed games, by die size, against what fair dice give. Games are counted once sealed, unless their organizer created them with "publicStats": false. ', STATS_PRIMER),
    status,
    list,
    el('p', { class: 'hint' }, 'Each game’s own figures are on its timeline once sealed; the verifier prints them from its export: node verifier.mjs stats export.json.'),
  );
  status.say('Loading…');
  api<PublicStats>('GET', '/stats', { signal: stop.signal })
    .then((stats) => {
      status.say(stats.dice.length === 0 ? 'No sealed game has been counted yet.' : `${stats.dice.length} die size${stats.dice.length === 1 ? '' : 's'} rolled in sealed games.`, 'ok');
      for (const die of stats.dice) list.append(dieFiguresView(die.figures, `d${die.sides} over ${die.games} sealed game${die.games === 1 ? '' : 's'}`, 'h2'));
    })
    .catch((error) => {
      if (!stop.signal.aborted) status.say(error instanceof ApiError ? error.message : 'The server cannot be reached. Reload the page to try again.', 'error');
    });
  return () => stop.abort();
}
