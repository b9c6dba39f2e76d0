// /#/organize (and /): create a game for any ruleset, then the links and the organizer's tools.
import { ApiError, api, gameLink } from './api';
import { rulesets, type RulesetInfo } from './catalogue';
import { beaconChoice } from './beaconChoice';
import { copyLink } from './copyLink';
import { clear, el, field, statusLine } from './dom';
import { organizerTools } from './organizerTools';
import { schemaForm, type FormPart } from './schemaForm';

interface Created {
  gameId: string;
  ruleset: string;
  sides: string[];
  tokens: { organizer: string; players: Record<string, string> };
}

export function organizerPage(root: HTMLElement): () => void {
  const status = statusLine();
  const select = el('select', { required: true });
  const description = el('p', { class: 'hint' });
  const title = el('input', { type: 'text', maxlength: 200, autocomplete: 'off', placeholder: 'e.g. Club night, game 3' });
  const isPublic = el('input', { type: 'checkbox' });
  isPublic.id = 'public-game';
  const countsPublicly = el('input', { type: 'checkbox', id: 'public-stats', checked: true });
  const beacon = beaconChoice('this game');
  const optionsSlot = el('div');
  const create = el('button', { type: 'submit' }, 'Create the game');
  const form = el('form', { class: 'create-game', 'aria-labelledby': 'create-title' },
    el('h1', { id: 'create-title' }, 'Create a game'),
    field('Ruleset', select), description,
    field('Title', title),
    optionsSlot,
    el('div', { class: 'field checkbox' }, isPublic, el('label', { for: isPublic.id }, 'Public: anyone with the game id may read it')),
    el('div', { class: 'field checkbox' }, countsPublicly, el('label', { for: countsPublicly.id }, 'Count its dice in the public dice statistics once sealed')),
    beacon.element,
    create, status);
  const result = el('section', { class: 'created', 'aria-live': 'polite' });
  const tournaments = el('p', { class: 'hint' }, 'Running a tournament or a club round? ', el('a', { href: '#/tournaments' }, 'Open the tournament page'), ': it creates the games under one token, shows them all, and exports and verifies the round.');
  clear(root);
  root.append(form, tournaments, result);

  let catalogue: RulesetInfo[] = [];
  let options: FormPart | undefined;
  const showRuleset = () => {
    const ruleset = catalogue.find((r) => r.id === select.value);
    if (!ruleset) return;
    description.textContent = `${ruleset.description} Sides: ${ruleset.sidesNote ?? ruleset.sides.join(', ')}.`;
    options = schemaForm(ruleset.options, 'Options');
    clear(optionsSlot);
    optionsSlot.append(options.element);
  };
  select.addEventListener('change', showRuleset);
  rulesets()
    .then((list) => {
      catalogue = list;
      select.append(...list.map((r) => el('option', { value: r.id }, `${r.title} (${r.id})`)));
      showRuleset();
    })
    .catch(() => status.say('The rulesets could not be read from the server; reload to try again.', 'error'));

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    let chosen: unknown;
    try {
      chosen = options?.read();
    } catch (error) {
      return status.say((error as Error).message, 'error');
    }
    const body = {
      ruleset: select.value,
      ...(title.value.trim() ? { title: title.value.trim() } : {}),
      ...(chosen && Object.keys(chosen).length ? { options: chosen } : {}),
      ...(isPublic.checked ? { public: true } : {}),
      ...(countsPublicly.checked ? {} : { publicStats: false }),
      ...beacon.body(),
    };
    create.disabled = true;
    status.say('Creating…');
    try {
      const game = await api<Created>('POST', '/games', { body });
      status.say(`Game ${game.gameId} created.`, 'ok');
      showCreated(result, game);
      result.querySelector<HTMLElement>('h2')?.focus();
    } catch (error) {
      status.say(error instanceof ApiError ? `Refused (${error.status}): ${error.message}` : 'No answer from the server; try again.', 'error');
    } finally {
      create.disabled = false;
    }
  });
  return () => {};
}

function showCreated(result: HTMLElement, game: Created): void {
  clear(result);
  const organizerLink = gameLink(game.gameId, game.tokens.organizer);
  result.append(
    el('h2', { tabindex: '-1' }, `Game ${game.gameId}`),
    el('p', { class: 'warning' }, 'These links are shown once: each holds its token. Send each player their own link; keep the organizer’s.'),
    el('ul', { class: 'links' },
      ...Object.entries(game.tokens.players).map(([side, token]) => el('li', {}, copyLink(`Player link: ${side}`, gameLink(game.gameId, token)))),
      el('li', {}, copyLink('Organizer link', organizerLink)),
    ),
    el('p', {}, el('a', { href: organizerLink.slice(organizerLink.indexOf('#')), class: 'button' }, 'Open the timeline as organizer')),
    organizerTools(game.gameId, game.tokens.organizer, () => {}),
  );
}
