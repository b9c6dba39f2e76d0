// /#/tournaments: create a tournament. /#/tournaments/{id}?token={token}: its games at a
// glance, new games, the round's export and its verification in this browser. The token
// stays in the fragment, so the page can be bookmarked and no server log ever sees it.
import type { TournamentExamination } from '../../domain/verify/tournamentExport';
import { ApiError, api, gameLink, gamePath, serverKeyDocument } from './api';
import { rulesets, type RulesetInfo } from './catalogue';
import { beaconChoice } from './beaconChoice';
import { PINNED_CHAINS_LABEL, pinnedChains, tournamentBeaconsLine } from './beaconsLine';
import { checkInWorker, WorkerFailure } from './checkInWorker';
import { copyLink } from './copyLink';
import { madeExport } from './exportJob';
import { clear, el, field, statusLine } from './dom';
import { EXIT, type ExitCode } from '../../domain/verify/exitCodes';
import { tournamentCounts, tournamentGameVerdict } from '../../domain/verify/tournamentVerdict';
import { when } from './organizerTools';
import { schemaForm, type FormPart } from './schemaForm';

interface ListedGame {
  gameId: string;
  ruleset: string;
  title: string;
  sides: string[];
  version: number;
  sealed: boolean;
  head: { seq: number; hash: string; at: string };
  /** The side whose move it is, null when none (docs/clocks.md). */
  toMove: string | null;
  /** The sides past the game's time control. */
  overdue: string[];
}

/** The Clock column: whose move it is, and the sides overdue, in words. */
function clockCell(game: ListedGame): string {
  if (game.sealed) return '—';
  if (game.overdue.length) return `OVERDUE: ${game.overdue.join(', ')}`;
  return game.toMove ? `${game.toMove} to move, on time` : 'on time';
}

interface Listing {
  tournamentId: string;
  name: string;
  createdAt: string;
  games: ListedGame[];
  next: string | null;
}

/** A listing has pages of 100 games; a page of this tool shows at most this many pages. */
const MAX_PAGES = 50;

const tournamentPath = (id: string, rest = '') => `/tournaments/${encodeURIComponent(id)}${rest}`;
export const tournamentLink = (id: string, token: string) => `${location.origin}/#/tournaments/${encodeURIComponent(id)}?token=${encodeURIComponent(token)}`;
const refused = (error: unknown) => (error instanceof ApiError ? `Refused (${error.status}): ${error.message}` : 'No answer from the server; try again.');

export function tournamentPage(root: HTMLElement, path: string, params: URLSearchParams): () => void {
  const match = path.match(/^\/tournaments\/([^/]+)$/);
  if (!match) return createTournamentPage(root);
  let id: string;
  try {
    id = decodeURIComponent(match[1]);
  } catch {
    return createTournamentPage(root);
  }
  return oneTournamentPage(root, id, params.get('token') ?? '');
}

function createTournamentPage(root: HTMLElement): () => void {
  const status = statusLine();
  const name = el('input', { type: 'text', maxlength: 200, autocomplete: 'off', placeholder: 'e.g. Club championship 2026, round 1' });
  const beacon = beaconChoice('every game of the tournament');
  const create = el('button', { type: 'submit' }, 'Create the tournament');
  const form = el('form', { class: 'create-game', 'aria-labelledby': 'tournament-create-title' },
    el('h1', { id: 'tournament-create-title' }, 'Create a tournament'),
    el('p', {}, 'A tournament is a set of games made with one token. Its page lists every game with its state and signed head, makes new games, and exports and verifies the whole round.'),
    field('Name', name),
    beacon.element,
    create,
    status,
  );
  clear(root);
  root.append(form, el('p', { class: 'hint' }, 'Already have one? Open its link (…/#/tournaments/t-…?token=…): it is the page’s bookmark.'));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    create.disabled = true;
    status.say('Creating…');
    try {
      const body = { ...(name.value.trim() ? { name: name.value.trim() } : {}), ...beacon.body() };
      const created = await api<{ tournamentId: string; token: string }>('POST', '/tournaments', { body });
      location.hash = `#/tournaments/${encodeURIComponent(created.tournamentId)}?token=${encodeURIComponent(created.token)}`;
    } catch (error) {
      status.say(refused(error), 'error');
      create.disabled = false;
    }
  });
  return () => {};
}

function oneTournamentPage(root: HTMLElement, tournamentId: string, token: string): () => void {
  const stop = new AbortController();
  const status = statusLine();
  const title = el('h1', {}, `Tournament ${tournamentId}`);
  const facts = el('p', { class: 'hint' });
  const body = el('tbody');
  const table = el('table', { class: 'tournament-games' },
    el('caption', {}, 'Games, in the order they were created'),
    el('thead', {}, el('tr', {}, ...['Game', 'Ruleset', 'Commits', 'Turn', 'State', 'Clock', 'Signed head', 'Verification', 'Organizer'].map((h) => el('th', { scope: 'col' }, h)))),
    body,
  );
  const refresh = el('button', { type: 'button' }, 'Refresh the games');
  const download = el('button', { type: 'button' }, 'Download the round’s export');
  const verify = el('button', { type: 'button' }, 'Verify the round');
  const pins = el('textarea', { rows: 2, spellcheck: 'false', class: 'fingerprints' });
  const chains = el('textarea', { rows: 1, spellcheck: 'false', class: 'fingerprints' });
  const allowUnsealed = el('input', { type: 'checkbox', id: 'tournament-allow-unsealed' });
  const report = el('section', { class: 'report', 'aria-labelledby': 'round-report-title', tabindex: '-1', hidden: true });
  const minted = el('div', { 'aria-live': 'polite', class: 'minted' });
  let keyLogs: unknown[] = [];
  let verdicts = new Map<string, string>();

  // Adding a game: the same form as the organizer page, sent with the tournament's token.
  const select = el('select', { required: true });
  const gameTitle = el('input', { type: 'text', maxlength: 200, autocomplete: 'off', placeholder: 'e.g. Table 3: Ann v Bob' });
  const optionsSlot = el('div');
  const add = el('button', { type: 'submit' }, 'Add the game');
  const addStatus = statusLine();
  const created = el('div', { 'aria-live': 'polite' });
  const addForm = el('form', { class: 'create-game', 'aria-labelledby': 'add-game-title' },
    el('h2', { id: 'add-game-title' }, 'Add a game'),
    field('Ruleset', select), field('Game title', gameTitle), optionsSlot, add, addStatus, created);
  let catalogue: RulesetInfo[] = [];
  let options: FormPart | undefined;
  const showRuleset = () => {
    const ruleset = catalogue.find((r) => r.id === select.value);
    if (!ruleset) return;
    options = schemaForm(ruleset.options, 'Options');
    clear(optionsSlot);
    optionsSlot.append(options.element);
  };
  select.addEventListener('change', showRuleset);

  clear(root);
  if (!token) {
    root.append(title, el('p', { class: 'warning' }, 'This page needs the tournament’s own link, with its token (…/#/tournaments/t-…?token=…). ', el('a', { href: '#/tournaments' }, 'Create a tournament'), ' if you have none.'));
    return () => {};
  }
  const clockNote = el('p', { class: 'hint', 'data-clock-note': '' }, 'Clock: OVERDUE names the side to move when it is past the game’s time control (per move or in all); open the game for each side’s time used.');
  root.append(
    title,
    facts,
    el('p', { class: 'warning' }, 'This page’s address holds the tournament’s token: bookmark it and keep it private. Whoever has it is the organizer of every game below; Arbiter shows it nowhere else.'),
    copyLink('Tournament link (bookmark it)', tournamentLink(tournamentId, token)),
    el('section', { class: 'round', 'aria-labelledby': 'games-title' },
      el('h2', { id: 'games-title' }, 'Games'),
      table,
      clockNote,
      minted,
      el('div', { class: 'row' }, refresh, download),
      status,
    ),
    addForm,
    el('section', { class: 'inputs', 'aria-labelledby': 'verify-round-title' },
      el('h2', { id: 'verify-round-title' }, 'Verify the round'),
      el('p', {}, 'The round’s export is checked here, in your browser, by the same code as ', el('code', {}, 'node verifier.mjs'), ': every hash, signature, die and rule of every game, and the signed list of the tournament’s games.'),
      field('Trusted fingerprints (one per line)', pins, 'Prefilled with the keys this server lists (GET /keys); compare them with the ones the organizer published.'),
      field(PINNED_CHAINS_LABEL, chains, 'Only for beacon games on a drand chain other than quicknet: its 64-hex chain hash — best as hash:public key, as its operator published them.'),
      el('div', { class: 'field checkbox' }, allowUnsealed, el('label', { for: allowUnsealed.id }, 'Accept games not sealed yet (their dice cannot be checked until then)')),
      verify,
    ),
    report,
  );

  let listed: Listing | undefined;
  const renderGames = (games: ListedGame[], turns: Map<string, string>) => {
    clear(body);
    if (!games.length) body.append(el('tr', {}, el('td', { colspan: 9, class: 'hint' }, 'No game yet: add one below.')));
    for (const game of games) {
      body.append(el('tr', { 'data-game-id': game.gameId },
        el('th', { scope: 'row' }, game.title || game.gameId, el('br'), el('small', { class: 'hint' }, game.gameId)),
        el('td', {}, game.ruleset),
        el('td', { 'data-field': 'commits' }, String(game.version)),
        el('td', { 'data-field': 'turn' }, turns.get(game.gameId) ?? '—'),
        el('td', { 'data-field': 'state', class: game.sealed ? 'sealed' : 'open' }, game.sealed ? 'sealed' : 'in play'),
        el('td', { 'data-field': 'clock', class: game.overdue.length && !game.sealed ? 'overdue' : 'hint' }, clockCell(game)),
        el('td', { 'data-field': 'head', class: 'fingerprint' }, `#${game.head.seq} ${game.head.hash.slice(0, 12)}…`, el('br'), el('small', {}, when(game.head.at))),
        el('td', { 'data-field': 'verification' }, verdicts.get(game.gameId) ?? 'not checked yet'),
        el('td', {},
          el('a', { href: `#/games/${encodeURIComponent(game.gameId)}?token=${encodeURIComponent(token)}`, 'aria-label': `Open ${game.title || game.gameId} as organizer` }, 'Open as organizer'),
          el('br'),
          spectatorButton(game)),
      ));
    }
  };

  // A spectator link for a game, minted from the table and shown once, under it.
  const spectatorButton = (game: ListedGame) => {
    const name = game.title || game.gameId;
    const button = el('button', { type: 'button', class: 'small', 'aria-label': `New spectator link for ${name}` }, 'New spectator link');
    button.addEventListener('click', async () => {
      try {
        const viewer = await api<{ token: string }>('POST', gamePath(game.gameId, '/viewers'), { token, body: { label: 'from the tournament page' } });
        clear(minted);
        minted.append(el('p', { class: 'warning' }, `A spectator link for ${name}, shown this once. Revoke it from the game's organizer page.`), copyLink(`Spectator link: ${name}`, gameLink(game.gameId, viewer.token)));
        minted.querySelector<HTMLInputElement>('input')?.focus();
      } catch (error) {
        status.say(refused(error), 'error');
      }
    });
    return button;
  };

  const load = async () => {
    status.say('Reading the games…');
    let page = await api<Listing>('GET', tournamentPath(tournamentId), { token, signal: stop.signal });
    const games = [...page.games];
    for (let i = 1; page.next && i < MAX_PAGES; i++) {
      page = await api<Listing>('GET', tournamentPath(tournamentId, `?after=${encodeURIComponent(page.next)}`), { token, signal: stop.signal });
      games.push(...page.games);
    }
    listed = { ...page, games };
    title.textContent = page.name || `Tournament ${tournamentId}`;
    document.title = `${page.name || tournamentId} — Arbiter`;
    facts.textContent = `${tournamentId} · created ${when(page.createdAt)} · ${games.length} game${games.length === 1 ? '' : 's'}${page.next ? ` (the first ${games.length})` : ''}`;
    renderGames(games, new Map());
    // The turn is in each game's state: one read per game, drawn as they come.
    const turns = new Map<string, string>();
    await Promise.all(games.map(async (game) => {
      const view = await api<{ state?: Record<string, unknown> }>('GET', gamePath(game.gameId), { token, signal: stop.signal }).catch(() => undefined);
      const s = view?.state ?? {};
      const turn = ['turn', 'phase'].filter((k) => typeof s[k] === 'string' || typeof s[k] === 'number').map((k) => `${k} ${String(s[k])}`).join(', ');
      if (turn) turns.set(game.gameId, turn);
    }));
    renderGames(games, turns);
    status.say(`${games.length} game${games.length === 1 ? '' : 's'}, read ${new Date().toLocaleTimeString()}.`);
  };
  const reload = () => load().catch((error) => !stop.signal.aborted && status.say(refused(error), 'error'));
  refresh.addEventListener('click', reload);

  addForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    let chosen: unknown;
    try {
      chosen = options?.read();
    } catch (error) {
      return addStatus.say((error as Error).message, 'error');
    }
    const request = {
      ruleset: select.value,
      ...(gameTitle.value.trim() ? { title: gameTitle.value.trim() } : {}),
      ...(chosen && Object.keys(chosen).length ? { options: chosen } : {}),
    };
    add.disabled = true;
    try {
      const game = await api<{ gameId: string; tokens: { players: Record<string, string> } }>('POST', '/games', { token, body: request });
      clear(created);
      created.append(
        el('p', { class: 'warning' }, `Game ${game.gameId} added. Each player link is shown this once: send each player their own. You reach the game as organizer from the table.`),
        el('ul', { class: 'links' }, ...Object.entries(game.tokens.players).map(([side, t]) => el('li', {}, copyLink(`Player link: ${side}`, gameLink(game.gameId, t))))),
      );
      addStatus.say(`Game ${game.gameId} added.`, 'ok');
      gameTitle.value = '';
      await reload();
    } catch (error) {
      addStatus.say(refused(error), 'error');
    } finally {
      add.disabled = false;
    }
  });

  const exportText = async (): Promise<string> => {
    // Made by a job on the server: 202 until it is ready, then the file.
    const response = await madeExport(tournamentPath(tournamentId, '/export'), token, stop.signal, (seconds, looks) =>
      status.say(`The server is making the round’s export (${looks === 1 ? 'started' : `still at it, ${looks} looks`}); asking again in ${seconds} s…`),
    );
    if (!response.ok) throw new ApiError(response.status, 'http_error', `The server answered ${response.status}.`);
    return response.text();
  };
  download.addEventListener('click', async () => {
    try {
      const url = URL.createObjectURL(new Blob([await exportText()], { type: 'application/x-ndjson' }));
      const a = el('a', { href: url, download: `${tournamentId}.ndjson`, hidden: true });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      status.say(`Export downloaded as ${tournamentId}.ndjson: node verifier.mjs checks it offline (GET /verifier.mjs).`, 'ok');
    } catch (error) {
      status.say(refused(error), 'error');
    }
  });

  verify.addEventListener('click', async () => {
    verify.disabled = true;
    status.say('Downloading the round’s export…');
    try {
      const text = await exportText();
      const trusted = pins.value.split(/[\s,]+/).map((p) => p.trim()).filter(Boolean);
      const answer = await checkInWorker({ file: new Blob([text]), trusted, keyLogs, allowUnsealed: allowUnsealed.checked, trustedChains: pinnedChains(chains.value) }, (p) => {
        if (p.unit === 'games') status.say(`Verified ${p.done} of ${p.total} games…`);
      });
      if (answer.kind !== 'tournament') {
        const why = answer.kind === 'unusable' ? answer.reason : answer.kind === 'error' ? `a check that broke (${answer.reason})` : 'a game export';
        status.say(`The server’s answer is not a tournament export: it is ${why}.`, 'error');
        return;
      }
      const { examination } = answer;
      verdicts = new Map(examination.games.flatMap((g) => (g.examination.report.gameId ? [[g.examination.report.gameId, tournamentGameVerdict(g)] as [string, string]] : [])));
      if (listed) renderGames(listed.games, currentTurns(body));
      renderRoundReport(report, examination, trusted.length > 0);
      status.say(`Checked the round’s export (${examination.games.length} games).`, examination.exitCode === EXIT.ok ? 'ok' : 'info');
      report.focus();
    } catch (error) {
      status.say(error instanceof WorkerFailure ? `The round could not be checked here: ${error.message}.` : refused(error), 'error');
    } finally {
      verify.disabled = false;
    }
  });

  rulesets()
    .then((list) => {
      catalogue = list;
      select.append(...list.map((r) => el('option', { value: r.id }, `${r.title} (${r.id})`)));
      showRuleset();
    })
    .catch(() => addStatus.say('The rulesets could not be read from the server; reload to try again.', 'error'));
  void serverKeyDocument()
    .then(({ keys, log }) => {
      keyLogs = [log];
      const currentFirst = [...keys.filter((k) => k.status === 'current'), ...keys.filter((k) => k.status !== 'current')];
      if (!pins.value) pins.value = currentFirst.map((k) => k.fingerprint).join('\n');
    })
    .catch(() => status.say('The server’s keys could not be read: paste the fingerprint you trust.', 'error'));
  void reload();
  return () => stop.abort();
}

const currentTurns = (body: HTMLElement) =>
  new Map(Array.from(body.querySelectorAll<HTMLElement>('tr[data-game-id]'), (row) => [row.dataset.gameId!, row.querySelector('[data-field="turn"]')?.textContent ?? '—'] as [string, string]).filter(([, turn]) => turn !== '—'));


const ROUND_VERDICTS: Record<ExitCode, string> = {
  0: 'Verified: every game passed every check, the tournament’s signed list matches the file, and everything is signed by a key you trust.',
  1: 'Failed: a game or the file failed a check (see below).',
  2: 'Not an export that can be checked in full (see below).',
  3: 'Consistent, but not conclusive: a game is not sealed yet, or no trusted key is pinned.',
};

function renderRoundReport(report: HTMLElement, examination: TournamentExamination, trustConfigured: boolean): void {
  clear(report);
  report.hidden = false;
  const totals = tournamentCounts(examination, trustConfigured);
  const { header } = examination;
  report.append(
    el('h2', { id: 'round-report-title' }, 'The round’s verification'),
    el('p', { class: `verdict exit-${examination.exitCode}`, 'data-exit-code': examination.exitCode }, ROUND_VERDICTS[examination.exitCode]),
    el('p', {}, `${header.games} game${header.games === 1 ? '' : 's'} exported ${when(header.exportedAt)}: ${totals.join(', ')}.`),
    examination.headSigner ? el('p', { class: examination.headSigner.trusted ? 'hint' : 'untrusted' }, `Tournament head signed by ${examination.headSigner.fingerprint}: ${examination.headSigner.trusted ? 'a key you trust' : 'NOT a key you trust'}.`) : '',
    tournamentBeaconsLine(examination.games.map((g) => g.examination.report)) ?? '',
    el('ul', { class: 'round-games' }, ...examination.games.map((g) => el('li', { class: g.examination.report.exitCode === EXIT.ok ? 'ok' : 'bad', 'data-game-id': g.examination.report.gameId ?? '' }, `${g.examination.report.gameId ?? `line ${g.line}`}: ${tournamentGameVerdict(g)}`))),
  );
  if (examination.problems.length) {
    report.append(el('h3', {}, 'The file as a whole'), el('ul', {}, ...examination.problems.map((p) => el('li', { class: 'bad' }, p.failures[0]?.reason ?? 'a problem'))));
  }
}
