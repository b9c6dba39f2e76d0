// /#/games/{gameId}?token={token}: the game's header, one row per commit, new commits
// pushed over a WebSocket (push.ts) or, when that is not there, by long-poll (after / wait /
// If-None-Match), reconnecting with backoff.
import { ApiError, api, gamePath, request, serverKeys, type PublishedKey } from './api';
import { rulesets, type RulesetInfo } from './catalogue';
import { commandBox, type BeaconTimes, type CommandBox } from './commandBox';
import { clockTime, commitRow, markVoided, pendingRoundOf, voidOf, type Commit, type VoidedBy } from './commitRow';
import { clear, el, field, statusLine } from './dom';
import { entropyPrompt } from './entropyPrompt';
import { clockSlot } from './clockSlot';
import type { ClockView } from './gameClock';
import { organizerTools } from './organizerTools';
import { notificationsSlot } from './notificationsSlot';
import { followByPush, pushUrl, type PushHandlers } from './push';
import { showGameStats } from './statsView';

interface GameView {
  gameId: string;
  ruleset: string;
  title: string;
  sides: string[];
  version: number;
  sealed: boolean;
  state: Record<string, unknown>;
  role?: string | null;
  /** `locked` once a die was rolled: no more entropy. */
  entropy?: { contributions: number; locked: boolean };
  /** A beacon game (docs/beacon.md): its drand chain, and the roll that waits for its round, if one does. */
  beacon?: { chain: string; chainHash: string; pending?: { seq: number; round: number; roundAt: string; late: boolean } };
}

const WAIT_SECONDS = 20;
const MAX_BACKOFF_MS = 8_000;
/** A long poll refused because the server's pool of them is full (429 long_poll_full): waited at most this long. */
const MAX_BUSY_WAIT_S = 30;

/** The server's long polls are all taken (a crowd follows a game, docs/push.md): read again after `seconds`, without waiting. */
class LongPollsFull extends Error {
  constructor(readonly seconds: number) {
    super('long_poll_full');
  }
}
const PAGE = 1000;
const MAX_CATCH_UP_PAGES = 10_000;
/** After a push socket that held closes (idle, 2-hour limit, a restart): reconnect this soon. */
const PUSH_RETRY_MS = 1_000;
/** After one that failed: long-poll at least this long before trying push again, doubling up to the maximum. */
const PUSH_BACKOFF_MS = 15_000;
const MAX_PUSH_BACKOFF_MS = 5 * 60_000;
/**
 * While a beacon game's roll waits, the header is read again (the view says when its reveal is
 * late): every 5 s for its first minute, then every 15 s, and every minute after five minutes or
 * while the tab is hidden, so that a long relay outage does not make every open page poll.
 */
function pendingRefreshMs(waitingMs: number): number {
  if (document.hidden || waitingMs >= 5 * 60_000) return 60_000;
  return waitingMs >= 60_000 ? 15_000 : 5_000;
}

export function timelinePage(root: HTMLElement, gameId: string, token: string): () => void {
  const stop = new AbortController();
  const connection = statusLine('connection');
  const lateReveal = el('p', { class: 'warning beacon-late', role: 'alert', hidden: true });
  const announcer = el('div', { class: 'visually-hidden', 'aria-live': 'polite', 'aria-atomic': 'false', id: 'announcer' });
  const header = el('header', { class: 'game-header' });
  const sideFilter = el('select', {}, el('option', { value: '' }, 'all'));
  const typeFilter = el('select', {}, el('option', { value: '' }, 'all'));
  const turnFilter = el('select', {}, el('option', { value: '' }, 'all'));
  const turnField = field('Show turn', turnFilter);
  turnField.hidden = true;
  const body = el('tbody');
  const table = el(
    'table',
    { class: 'timeline' },
    el('caption', {}, 'Commits, oldest first'),
    el('thead', {}, el('tr', {}, ...['Seq', 'Actor', 'Time', 'Line', 'Dice', 'Result'].map((h) => el('th', { scope: 'col' }, h)))),
    body,
  );
  let box: CommandBox | undefined;
  const promptSlot = el('div');
  const commandSlot = el('div');
  const toolsSlot = el('div');
  const clock = clockSlot();
  stop.signal.addEventListener('abort', () => clock.dispose());
  clear(root);
  root.append(header, clock.element, connection, lateReveal, promptSlot, commandSlot, toolsSlot, el('section', { class: 'filters', 'aria-label': 'Filters' }, field('Show side', sideFilter), field('Show command', typeFilter), turnField), table, announcer);

  let game: GameView | undefined;
  let ruleset: RulesetInfo | undefined;
  // The keys that signed the commits shown, by kid, in order of first use: after a rotation a game's key is not always the current one.
  let publishedKeys = new Map<string, PublishedKey>();
  const signingKids: string[] = [];
  const signedBy = () => {
    if (signingKids.length === 0) return '…';
    return signingKids
      .map((kid) => {
        const key = publishedKeys.get(kid);
        if (!key) return `${kid} (a key this server does not list)`;
        return key.status === 'retired' ? `${key.fingerprint} (since retired)` : key.fingerprint;
      })
      .join(', ');
  };
  const actors = new Set<string>();
  const types = new Set<string>();

  const applyFilters = () => {
    for (const row of Array.from(body.rows)) {
      row.hidden =
        (sideFilter.value !== '' && row.dataset.actor !== sideFilter.value) ||
        (typeFilter.value !== '' && row.dataset.type !== typeFilter.value) ||
        (turnFilter.value !== '' && row.dataset.turn !== turnFilter.value);
    }
  };
  sideFilter.addEventListener('change', applyFilters);
  typeFilter.addEventListener('change', applyFilters);
  turnFilter.addEventListener('change', applyFilters);
  const turns = new Set<string>();
  // A commit belongs to the turn of the last TurnStarted-like event (any event with a numeric `turn`) up to it.
  let turn: string | undefined;
  const addOption = (select: HTMLSelectElement, seen: Set<string>, value: string) => {
    if (seen.has(value)) return;
    seen.add(value);
    select.append(el('option', { value }, value));
  };

  // Built once; later commits change the text of its fields in place, so nothing blinks or loses focus.
  const facts = {
    title: el('h1', {}, 'Game'),
    ruleset: el('dd', {}),
    sides: el('dd', {}),
    version: el('dd', { 'data-field': 'version' }),
    turn: el('dd', { 'data-field': 'turn' }),
    sealed: el('dd', { 'data-field': 'sealed' }),
    fingerprint: el('dd', { class: 'fingerprint', 'data-field': 'fingerprint' }),
    role: el('dd', { 'data-field': 'role' }),
    beacon: el('dd', { 'data-field': 'beacon' }),
  };
  const beaconTerm = el('dt', {}, 'Dice');
  const turnTerm = el('dt', {}, 'Turn');
  clear(header);
  header.append(
    facts.title,
    el('dl', { class: 'facts' },
      el('dt', {}, 'Ruleset'), facts.ruleset,
      el('dt', {}, 'Sides'), facts.sides,
      el('dt', {}, 'Version'), facts.version,
      turnTerm, facts.turn,
      el('dt', {}, 'Sealed'), facts.sealed,
      beaconTerm, facts.beacon,
      el('dt', {}, 'Signed by'), facts.fingerprint,
      el('dt', {}, 'You are'), facts.role,
    ),
    el('p', {}, el('a', { href: `#/verify?game=${encodeURIComponent(gameId)}&token=${encodeURIComponent(token)}`, 'data-verify-link': '' }, 'Verify this game in your browser')),
  );
  const set = (node: HTMLElement, text: string) => {
    if (node.textContent !== text) node.textContent = text;
  };
  const renderHeader = () => {
    if (!game) return;
    const s = game.state ?? {};
    const turn = ['turn', 'phase'].filter((k) => typeof s[k] === 'string' || typeof s[k] === 'number').map((k) => `${k} ${String(s[k])}`);
    set(facts.title, game.title || game.gameId);
    set(facts.ruleset, ruleset?.title ?? game.ruleset);
    set(facts.sides, game.sides.join(' vs '));
    set(facts.version, String(game.version));
    set(facts.turn, turn.join(', '));
    turnTerm.hidden = facts.turn.hidden = turn.length === 0;
    set(facts.sealed, game.sealed ? 'sealed: every die can be checked' : 'not sealed: in play');
    facts.sealed.className = game.sealed ? 'sealed' : 'open';
    if (game.sealed) showGameStats(table, gameId, token);
    set(facts.fingerprint, signedBy());
    set(facts.role, game.role ?? 'a reader of a public game');
    const beacon = game.beacon;
    beaconTerm.hidden = facts.beacon.hidden = !beacon;
    if (beacon) set(facts.beacon, `beacon dice: each roll waits for a drand round of the ${beacon.chain} chain`);
    const pending = beacon?.pending;
    lateReveal.hidden = !pending?.late;
    if (pending?.late) {
      set(lateReveal, `The reveal of roll #${pending.seq} is late: drand round ${pending.round} was due at ${clockTime(pending.roundAt)} and the server has not revealed it yet. Nothing is lost: the roll is signed and its round fixed; the game waits until the server reaches a drand relay and reveals it. If this lasts, tell the organizer.`);
    }
    if (pending && pendingSince?.seq !== pending.seq) pendingSince = { seq: pending.seq, at: Date.now() };
    if (pending && !pendingTimer && !stop.signal.aborted) {
      pendingTimer = setTimeout(() => {
        pendingTimer = undefined;
        refreshSoon();
      }, pendingRefreshMs(Date.now() - (pendingSince?.at ?? Date.now())));
    }
  };
  let pendingSince: { seq: number; at: number } | undefined;
  let pendingTimer: ReturnType<typeof setTimeout> | undefined;
  stop.signal.addEventListener('abort', () => clearTimeout(pendingTimer));


  /** The clock, read with the game: null (hidden) from a server without one; undefined (the last reading kept) when the read failed. */
  const readClock = (): Promise<ClockView | null | undefined> =>
    api<ClockView>('GET', gamePath(gameId, '/clock'), { token, signal: stop.signal })
      .then((view) => (view && typeof view === 'object' && view.sides && typeof view.sides === 'object' ? view : null))
      .catch((error) => (error instanceof ApiError && error.status !== 503 && error.status !== 429 ? null : undefined));

  const refreshGame = async () => {
    const [view, clockView] = await Promise.all([api<GameView>('GET', gamePath(gameId), { token, signal: stop.signal }), readClock()]);
    game = view;
    if (!stop.signal.aborted && clockView !== undefined) clock.show(clockView);
    renderHeader();
    if (game.sealed) clear(commandSlot);
    if (game.sealed || game.entropy?.locked) clear(promptSlot);
  };

  // A beacon game's pending commands by seq: their reveals read as their results.
  const pendingCommands = new Map<number, Commit['command']>();
  let beaconChain: BeaconTimes | undefined;
  const addCommits = (commits: Commit[], lines: Map<number, string>, announce: boolean) => {
    const fragment = document.createDocumentFragment();
    for (const commit of commits) {
      if (body.querySelector(`tr[data-seq="${commit.seq}"]`)) continue;
      if (pendingRoundOf(commit)) pendingCommands.set(commit.seq, commit.command);
      // The chain of a beacon game, from its first commit: the sender's check reads round times from it, not from an answer.
      const created = commit.seq === 1 ? commit.events[0] : undefined;
      if (created?.type === 'GameCreated' && created.data?.beacon) beaconChain = created.data.beacon as BeaconTimes;
      const revealing = commit.command.type === 'RevealBeacon' ? (commit.command.payload as { pending?: unknown } | null)?.pending : undefined;
      const row = commitRow(game?.ruleset ?? '', commit, lines.get(commit.seq), typeof revealing === 'number' ? pendingCommands.get(revealing) : undefined);
      if (typeof revealing === 'number') box?.revealed(revealing, row.querySelector('td.line')?.textContent ?? '');
      // The first die locks the entropy: the prompt to add some goes at once.
      if (commit.dice.length > 0) clear(promptSlot);
      const started = commit.events.map((e) => e.data?.turn).find((t) => typeof t === 'number');
      if (started !== undefined) turn = String(started);
      if (turn !== undefined) {
        row.dataset.turn = turn;
        addOption(turnFilter, turns, turn);
        turnField.hidden = false;
      }
      fragment.append(row);
      // A Void marks the row it voids, already shown or in this batch.
      const voided = voidOf(commit);
      const target = voided && (body.querySelector<HTMLTableRowElement>(`tr[data-seq="${voided.seq}"]`) ?? fragment.querySelector<HTMLTableRowElement>(`tr[data-seq="${voided.seq}"]`));
      if (voided && target) markVoided(target, voided.by);
      if (typeof commit.kid === 'string' && !signingKids.includes(commit.kid)) {
        signingKids.push(commit.kid);
        renderHeader();
      }
      addOption(sideFilter, actors, commit.actor);
      addOption(typeFilter, types, commit.command.type);
      if (announce) {
        const said = el('p', {}, lines.get(commit.seq) ?? `#${commit.seq} ${commit.actor} ${commit.command.type}`);
        announcer.append(said);
        while (announcer.childElementCount > 5) announcer.firstElementChild!.remove();
      }
    }
    body.append(fragment);
    applyFilters();
  };

  const textLines = async (after: number, limit: number): Promise<Map<number, string>> => {
    const lines = new Map<number, string>();
    const response = await request('GET', gamePath(gameId, `/events?after=${after}&limit=${limit}`), { token, headers: { accept: 'text/plain' }, signal: stop.signal });
    if (!response.ok) return lines;
    for (const line of (await response.text()).split('\n')) {
      const seq = Number(line.match(/^#(\d+) /)?.[1]);
      // A Roll of several labelled rolls has a line per roll, each with its commit's #seq: one row shows them all.
      if (seq) lines.set(seq, lines.has(seq) ? `${lines.get(seq)}\n${line}` : line);
    }
    return lines;
  };

  const fatal = (error: ApiError) => {
    const words = error.status === 401 ? 'This link does not open this game (anymore): it was revoked, or it is not a link of this game.' : error.status === 404 ? 'There is no such game.' : error.message;
    connection.say(`${words} (${error.status})`, 'error');
  };

  // ---- following: push when the server offers it, long-poll otherwise (docs/push.md) ----
  // `after` is the last seq shown: every path adds only the commit after it, so nothing is shown twice or skipped.
  let after = 0;
  let etag: string | undefined;
  const live = (transport: 'push' | 'poll') => {
    connection.dataset.transport = transport;
    if (connection.dataset.kind !== 'ok') connection.say('Live: new commits appear as they are stored.', 'ok');
  };
  let refreshing: Promise<void> | undefined;
  let refreshAgain = false;
  /** The header follows the commits; refreshes are never stacked. */
  const refreshSoon = () => {
    if (refreshing) {
      refreshAgain = true;
      return;
    }
    refreshing = refreshGame()
      .catch(() => {})
      .finally(() => {
        refreshing = undefined;
        if (refreshAgain) {
          refreshAgain = false;
          refreshSoon();
        }
      });
  };

  /** One page of the commits after `after`; with `wait`, held until one exists (a long poll). */
  const readPage = async (wait: number, announce: boolean): Promise<'more' | 'done' | 'fatal'> => {
    const response = await request('GET', gamePath(gameId, `/events?after=${after}&limit=${PAGE}${wait ? `&wait=${wait}` : ''}`), {
      token,
      // Only once caught up: If-None-Match naming the current version is a 304 whatever the page.
      headers: wait && etag === `"${after}"` ? { 'if-none-match': etag } : {},
      signal: stop.signal,
    });
    if (response.status === 401 || response.status === 403 || response.status === 404) {
      const body = (await response.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
      fatal(new ApiError(response.status, body.error?.code ?? '', body.error?.message ?? ''));
      return 'fatal';
    }
    if (response.status === 304) return 'done';
    if (response.status === 429 && wait) {
      const seconds = Number(response.headers.get('retry-after'));
      throw new LongPollsFull(Number.isFinite(seconds) && seconds >= 1 ? Math.min(Math.ceil(seconds), MAX_BUSY_WAIT_S) : 5);
    }
    if (!response.ok) throw new Error(`status ${response.status}`);
    etag = response.headers.get('etag') ?? undefined;
    const page = (await response.json()) as { version: number; commits: Commit[]; voided?: { seq: number; voidedBy: VoidedBy }[] };
    const commits = page.commits.filter((c) => c.seq > after);
    if (!commits.length) return 'done';
    // A reveal's line reads as its roll's only when the page holds the pending commit before it.
    const from = commits[0].command.type === 'RevealBeacon' && after > 0 ? after - 1 : after;
    const lines = await textLines(from, commits.length + after - from);
    addCommits(commits, lines, announce);
    // Commits voided before this page was read: the page lists them beside the commits, which stay as signed.
    for (const { seq, voidedBy } of page.voided ?? []) {
      const target = body.querySelector<HTMLTableRowElement>(`tr[data-seq="${seq}"]`);
      if (target) markVoided(target, voidedBy);
    }
    after = commits[commits.length - 1].seq;
    // A page may be cut short by its byte cap: more follow while the game is ahead of it.
    return after < page.version ? 'more' : 'done';
  };

  /** Everything after `after`, over HTTP, without waiting. */
  const catchUp = async (announce: boolean): Promise<'done' | 'fatal'> => {
    for (let pages = 0; pages < MAX_CATCH_UP_PAGES; pages++) {
      const read = await readPage(0, announce);
      if (read !== 'more') return read;
    }
    return 'done';
  };

  class Fatal extends Error {}
  const pushHandlers: PushHandlers = {
    subscribed: () => live('push'),
    async commit(commit, line) {
      if (commit.seq <= after) return;
      // A hole (a commit pushed ahead of one missed): filled over HTTP first, so rows stay in order.
      if (commit.seq > after + 1 && (await catchUp(true)) === 'fatal') throw new Fatal();
      if (commit.seq !== after + 1) return;
      // A pushed reveal's line lacks its roll (the push sends one commit): read with the pending commit.
      if (commit.command.type === 'RevealBeacon' && commit.seq > 1) line = (await textLines(commit.seq - 2, 2).catch(() => undefined))?.get(commit.seq) ?? line;
      addCommits([commit], new Map([[commit.seq, line]]), true);
      after = commit.seq;
      refreshSoon();
    },
    async gap(_after, version) {
      if (version > after && (await catchUp(true)) === 'fatal') throw new Fatal();
      refreshSoon();
    },
  };

  const follow = async () => {
    // The game so far, over HTTP; then live.
    if ((await catchUp(false)) === 'fatal') return;
    if (after > (game?.version ?? 0)) await refreshGame();
    const url = pushUrl();
    let pushRefused = false;
    let nextPush = 0;
    let pushDelay = 0;
    let backoff = 500;
    // After a refused long poll, the next read does not wait: the pool of long polls is not asked for it.
    let readWithoutWaiting = false;
    while (!stop.signal.aborted) {
      try {
        if (url && !pushRefused && Date.now() >= nextPush) {
          const end = await followByPush(url, gameId, token, after, pushHandlers, stop.signal);
          if (stop.signal.aborted) return;
          connection.dataset.transport = 'poll';
          // Refused as a reader: long-poll says why (401, 404). Otherwise push is tried again: soon after a
          // socket that held (an idle or 2-hour close), later and later after one that never did.
          if (end.kind === 'refused' && ['unauthenticated', 'not_found', 'forbidden'].includes(end.code)) pushRefused = true;
          pushDelay = end.kind === 'closed' && end.subscribed ? PUSH_RETRY_MS : Math.min(Math.max(pushDelay * 2, PUSH_BACKOFF_MS), MAX_PUSH_BACKOFF_MS);
          nextPush = Date.now() + pushDelay;
          // Whatever the socket did not bring before it ended.
          if ((await catchUp(true)) === 'fatal') return;
          continue;
        }
        // Long-poll until push is due again.
        const wait = readWithoutWaiting ? 0 : url && !pushRefused ? Math.max(1, Math.min(WAIT_SECONDS, Math.ceil((nextPush - Date.now()) / 1000))) : WAIT_SECONDS;
        readWithoutWaiting = false;
        const before = after;
        const read = await readPage(wait, true);
        if (read === 'fatal') return;
        live('poll');
        backoff = 500;
        if (after > before) refreshSoon();
      } catch (error) {
        if (stop.signal.aborted) return;
        if (error instanceof ApiError) return fatal(error);
        if (error instanceof LongPollsFull) {
          connection.say(`So many people are following this game that the server asked to wait: the timeline is read again in ${error.seconds} s, and every few seconds while this lasts.`);
          await new Promise((resolve) => setTimeout(resolve, error.seconds * 1000));
          readWithoutWaiting = true;
          continue;
        }
        connection.say(`Connection lost; trying again in ${Math.round(backoff / 100) / 10} s…`, 'error');
        await new Promise((resolve) => setTimeout(resolve, backoff));
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      }
    }
  };

  const start = async () => {
    try {
      const [view, catalogue, keys, head, clockView] = await Promise.all([
        api<GameView>('GET', gamePath(gameId), { token, signal: stop.signal }),
        rulesets(),
        serverKeys().catch(() => []),
        api<{ kid?: unknown }>('GET', gamePath(gameId, '/head'), { token, signal: stop.signal }).catch(() => undefined),
        readClock(),
      ]);
      if (clockView !== undefined) clock.show(clockView);
      // The signed head's key signed the latest commit: shown at once, before the commits arrive.
      if (typeof head?.kid === 'string' && !signingKids.includes(head.kid)) signingKids.push(head.kid);
      game = view;
      ruleset = catalogue.find((r) => r.id === view.ruleset);
      publishedKeys = new Map(keys.map((k) => [k.kid, k]));
      for (const side of view.sides) addOption(sideFilter, actors, side);
      renderHeader();
      const role = view.role;
      if (role && role !== 'spectator' && !view.sealed && view.entropy && !view.entropy.locked) promptSlot.append(entropyPrompt(gameId, token));
      if (ruleset && role && role !== 'spectator' && !view.sealed) {
        box = commandBox({ gameId, token, role, sides: view.sides, ruleset, onSent: () => {}, beaconChain: () => beaconChain });
        commandSlot.append(box);
      }
      if (role === 'organizer') toolsSlot.append(organizerTools(gameId, token, () => void refreshGame().catch(() => {})));
      if (role && role !== 'organizer' && role !== 'spectator') toolsSlot.append(notificationsSlot({ gameId, token, role }));
      if (role === 'spectator') toolsSlot.append(el('p', { class: 'hint spectator' }, 'Spectator link: you follow the game; you cannot send commands.'));
      connection.say('Connecting…');
      await follow();
    } catch (error) {
      if (stop.signal.aborted) return;
      if (error instanceof ApiError) fatal(error);
      else connection.say('The server cannot be reached. Reload the page to try again.', 'error');
    }
  };
  void start();
  return () => stop.abort();
}
