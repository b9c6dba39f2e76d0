// "Beacon dice" on the forms that create games (docs/beacon.md): quicknet, the one chain every
// verifier knows. The API lists no other chains a server offers, so the page offers none.
import { el, uid } from './dom';

export interface BeaconChoice {
  element: HTMLElement;
  /** What the request body gets: `{ randomness: { beacon: "quicknet" } }` when ticked, nothing otherwise. */
  body(): { randomness?: { beacon: string } };
}

export function beaconChoice(what: string): BeaconChoice {
  const box = el('input', { type: 'checkbox', id: uid('beacon') });
  const hint = el('small', { id: `${box.id}-hint`, class: 'hint' }, `Each roll of ${what} waits a few seconds for a drand round published after the server accepted it, so that nobody, the server’s operator included, can know a die in advance. The server must be set up to fetch drand beacons.`);
  box.setAttribute('aria-describedby', hint.id);
  return {
    element: el('div', { class: 'field checkbox' }, box, el('label', { for: box.id }, 'Beacon dice (drand quicknet)'), hint),
    body: () => (box.checked ? { randomness: { beacon: 'quicknet' } } : {}),
  };
}
