// /#/verify: an export checked entirely in this browser, by the verifier the CLI runs
import { timeUsedText } from '../../domain/verify/timeUsed';
// (domain/verify/), against fingerprints the person pins. Nothing is uploaded. A game's
// export or a tournament's (NDJSON), checked in a worker (verifyWorker.ts) so the page
// answers and shows progress while a large file is checked, and a check can be cancelled.
import type { ExportExamination } from '../../domain/verify/verifyExport';
import { gamePath, parseGameLink, request, serverKeyDocument } from './api';
import { madeExport } from './exportJob';
import { clear, el, field, statusLine } from './dom';
import { beaconsLine, PINNED_CHAINS_LABEL, pinnedChains } from './beaconsLine';
import { renderTournamentReport } from './tournamentReport';
import { VERIFY_WORKER_URL, type CommitRow, type VerifyMessage, type VerifyRequest } from './verifyMessages';

const CHECKS = ['structure', 'sequence', 'gameId', 'prevHash', 'hash', 'signature', 'creation', 'commitment', 'ruleset', 'serverSeed', 'dice', 'entropy', 'rules', 'keys', 'keyLog', 'head', 'trust', 'retired', 'sealed'];

const STEPS: Record<string, string> = { chain: 'Checking hashes and signatures', dice: 'Re-deriving the dice', rules: 'Replaying the rules' };

export function verifyPage(root: HTMLElement, params: URLSearchParams): () => void {
  const stop = new AbortController();
  const status = statusLine();
  const file = el('input', { type: 'file', accept: 'application/json,.json,application/x-ndjson,.ndjson' });
  const drop = el('div', { class: 'drop-zone' }, 'or drop an export file here');
  const link = el('input', { type: 'url', class: 'link', placeholder: `${location.origin}/#/games/…?token=…`, autocomplete: 'off' });
  const load = el('button', { type: 'button' }, 'Load the export');
  const pins = el('textarea', { rows: 2, spellcheck: 'false', class: 'fingerprints' });
  const chains = el('textarea', { rows: 1, spellcheck: 'false', class: 'fingerprints' });
  const allowUnsealed = el('input', { type: 'checkbox' });
  allowUnsealed.id = 'allow-unsealed';
  const again = el('button', { type: 'button' }, 'Verify again');
  const bar = el('progress', { max: 1, value: 0, 'aria-label': 'Verification progress' });
  const barText = el('span', { class: 'progress-text' });
  const cancel = el('button', { type: 'button', class: 'danger' }, 'Cancel the check');
  const progress = el('div', { class: 'progress row', hidden: true }, bar, barText, cancel);
  const report = el('section', { class: 'report', 'aria-labelledby': 'report-title', tabindex: '-1' });
  let source: { name: string; file: Blob } | undefined;
  let worker: Worker | undefined;
  // The server's key log: a key it retired is refused for anything signed after its retirement, even when a file leaves the log out.
  let keyLogs: unknown[] = [];

  clear(root);
  root.append(
    el('h1', {}, 'Verify an export'),
    el('p', {}, 'The export — a game’s, or a whole tournament’s — is checked here, in your browser, by the same code as ', el('code', {}, 'node verifier.mjs'), ': it is not uploaded. Every signature must come from a key you pin below, never from a key the file supplies.'),
    el('section', { class: 'inputs', 'aria-label': 'The export' },
      field('Export file (JSON)', file, 'a game’s export (.json), or a tournament’s (.ndjson, one game per line)'),
      drop,
      el('div', { class: 'row' }, field('or a game’s or tournament’s link', link, 'its token reads the export from this server'), load)),
    field('Trusted fingerprints (one per line)', pins, 'Prefilled with every key this server lists (GET /keys), the current one first, then those it retired: games signed before a rotation need theirs. Compare them with the ones the organizer published.'),
    field(PINNED_CHAINS_LABEL, chains, 'Beacon games on quicknet need nothing here. A game on another drand chain (a private one, a test one) is trusted only if you paste its 64-hex chain hash — best as hash:public key, both as its operator published them, so that a file giving that hash with another key fails.'),
    el('div', { class: 'field checkbox' }, allowUnsealed, el('label', { for: allowUnsealed.id }, 'Accept a game not sealed yet (its dice cannot be checked until then)')),
    again,
    progress,
    status,
    report,
  );

  const showProgress = (text: string, done: number, total: number) => {
    progress.hidden = false;
    bar.max = Math.max(total, 1);
    bar.value = done;
    barText.textContent = text;
    barText.dataset.done = String(done);
    barText.dataset.total = String(total);
  };
  const finish = () => {
    worker?.terminate();
    worker = undefined;
    progress.hidden = true;
  };

  const answer = (message: VerifyMessage, name: string, trustConfigured: boolean) => {
    if (message.kind === 'progress') {
      const count = `${message.done.toLocaleString('en')} of ${message.total.toLocaleString('en')}`;
      return showProgress(message.unit === 'games' ? `Verified ${count} games` : `${STEPS[message.step]}: ${count} commits`, message.done, message.total);
    }
    finish();
    if (message.kind === 'unusable') {
      clear(report);
      return status.say(`${name} is ${message.reason}`, 'error');
    }
    if (message.kind === 'error') {
      clear(report);
      return status.say(`The check stopped before the end: ${message.reason}. Try again, or check the file with node verifier.mjs (GET /verifier.mjs).`, 'error');
    }
    status.say(`Checked ${name}.`);
    if (message.kind === 'tournament') renderTournamentReport(report, message.examination, trustConfigured);
    else renderReport(report, message.examination, message.commits);
    report.focus();
  };

  const run = () => {
    if (!source) return status.say('Choose an export file first.', 'error');
    finish();
    clear(report);
    const { name, file: blob } = source;
    const trusted = pins.value.split(/[\s,]+/).map((p) => p.trim()).filter(Boolean);
    let started: Worker;
    try {
      started = new Worker(VERIFY_WORKER_URL, { type: 'module', name: 'verify' });
    } catch (error) {
      return status.say(`The verifier cannot start in this browser: ${(error as Error).message}`, 'error');
    }
    worker = started;
    started.onmessage = (event: MessageEvent<VerifyMessage>) => {
      if (worker === started) answer(event.data, name, trusted.length > 0);
    };
    started.onerror = (event) => {
      if (worker !== started) return;
      finish();
      status.say(`The verifier could not run: ${event.message || 'its script did not load'}.`, 'error');
    };
    status.say(`Checking ${name}…`);
    showProgress('Reading the file…', 0, 1);
    const request: VerifyRequest = { file: blob, trusted, keyLogs, allowUnsealed: allowUnsealed.checked, trustedChains: pinnedChains(chains.value) };
    started.postMessage(request);
  };

  const take = async (name: string, blob: Promise<Blob>) => {
    try {
      source = { name, file: await blob };
      run();
    } catch {
      status.say(`${name} could not be read.`, 'error');
    }
  };
  file.addEventListener('change', () => {
    const chosen = file.files?.[0];
    if (chosen) void take(chosen.name, Promise.resolve(chosen));
  });
  drop.addEventListener('dragover', (e) => {
    e.preventDefault();
    drop.classList.add('over');
  });
  drop.addEventListener('dragleave', () => drop.classList.remove('over'));
  drop.addEventListener('drop', (e) => {
    e.preventDefault();
    drop.classList.remove('over');
    const dropped = e.dataTransfer?.files[0];
    if (dropped) void take(dropped.name, Promise.resolve(dropped));
  });
  const loadLink = async (target: ExportLink) => {
    status.say('Loading the export…');
    const path = target.kind === 'game' ? gamePath(target.id, '/export') : `/tournaments/${encodeURIComponent(target.id)}/export`;
    // A tournament's export is made by a job on the server: 202 until it is ready (exportJob.ts).
    const waited = (seconds: number) => status.say(`The server is making the export; asking again in ${seconds} s…`);
    const response = await (target.kind === 'game' ? request('GET', path, { token: target.token, signal: stop.signal }) : madeExport(path, target.token, stop.signal, waited)).catch(() => undefined);
    if (stop.signal.aborted) return;
    if (!response) return status.say('The server cannot be reached.', 'error');
    if (!response.ok) return status.say(response.status === 401 ? `This link does not open the ${target.kind} (401).` : `The server answered ${response.status}.`, 'error');
    await take(`the export of ${target.kind === 'game' ? '' : 'tournament '}${target.id}`, response.blob());
  };
  load.addEventListener('click', () => {
    const parsed = parseExportLink(link.value.trim());
    if (!parsed) return status.say('That is not a game’s link (…/#/games/{id}?token=…) or a tournament’s (…/#/tournaments/{id}?token=…).', 'error');
    void loadLink(parsed);
  });
  again.addEventListener('click', run);
  cancel.addEventListener('click', () => {
    finish();
    clear(report);
    status.say(`The check of ${source?.name ?? 'the export'} was cancelled: nothing is verified.`);
    again.focus();
  });
  allowUnsealed.addEventListener('change', () => source && run());

  void serverKeyDocument()
    .then(({ keys, log }) => {
      keyLogs = [log];
      const currentFirst = [...keys.filter((k) => k.status === 'current'), ...keys.filter((k) => k.status !== 'current')];
      if (!pins.value) pins.value = currentFirst.map((k) => k.fingerprint).join('\n');
      const given = exportLinkOf(params);
      if (given) {
        link.value = `${location.origin}/#/${given.kind === 'game' ? 'games' : 'tournaments'}/${encodeURIComponent(given.id)}?token=${encodeURIComponent(given.token)}`;
        void loadLink(given);
      }
    })
    .catch(() => status.say('The server’s keys could not be read: paste the fingerprint you trust.', 'error'));
  return () => {
    stop.abort();
    finish();
  };
}

interface ExportLink {
  kind: 'game' | 'tournament';
  id: string;
  token: string;
}

/** `#/verify?game=…&token=…` (the timeline's link) or `?tournament=…&token=…`. */
function exportLinkOf(params: URLSearchParams): ExportLink | undefined {
  const token = params.get('token') ?? '';
  const game = params.get('game');
  if (game) return { kind: 'game', id: game, token };
  const tournament = params.get('tournament');
  return tournament ? { kind: 'tournament', id: tournament, token } : undefined;
}

function parseExportLink(text: string): ExportLink | undefined {
  const game = parseGameLink(text);
  if (game) return { kind: 'game', id: game.gameId, token: game.token };
  const hash = text.includes('#') ? text.slice(text.indexOf('#') + 1) : text;
  const match = hash.match(/^\/tournaments\/([^?/]+)(?:\?(.*))?$/);
  if (!match) return undefined;
  try {
    return { kind: 'tournament', id: decodeURIComponent(match[1]), token: new URLSearchParams(match[2] ?? '').get('token') ?? '' };
  } catch {
    return undefined;
  }
}

const VERDICTS: Record<number, string> = {
  0: 'Verified: every check passed, everything is signed by a key you trust, and the game is sealed.',
  1: 'Failed: a check failed.',
  2: 'Not an export that can be checked.',
  3: 'Consistent, but not conclusive: ',
};

function renderReport(report: HTMLElement, examination: ExportExamination, commits: CommitRow[] | null): void {
  const { report: r, signers } = examination;
  clear(report);
  const failures = r.failures;
  const firstCommitFailure = failures.filter((f) => f.seq > 0).sort((a, b) => a.seq - b.seq)[0];
  const untrusted = signers.filter((s) => !s.trusted);
  let verdict = VERDICTS[r.exitCode];
  if (r.exitCode === 3) verdict += !r.sealed ? 'the game is not sealed yet, so its dice cannot be checked until the organizer seals it.' : 'no trusted fingerprint is pinned. Pin the signer’s fingerprint if you trust it.';
  if (r.exitCode === 1 && firstCommitFailure) verdict = `Failed: the first failure is at #${firstCommitFailure.seq} (${firstCommitFailure.check}): ${firstCommitFailure.reason}`;
  else if (r.exitCode === 1 && failures[0]) verdict = `Failed (${failures[0].check}): ${failures[0].reason}`;

  report.append(
    el('h2', { id: 'report-title' }, 'Report'),
    el('p', { class: `verdict exit-${r.exitCode}`, 'data-exit-code': r.exitCode }, verdict),
  );
  if (untrusted.length && r.exitCode !== 2) {
    report.append(el('p', { class: 'untrusted', 'data-untrusted': '' }, `Not signed by the pinned key: signed by ${untrusted.map((s) => s.fingerprint).join(', ')}, which none of your trusted fingerprints reaches.`));
  }
  report.append(
    beaconsLine(r.beacons, failures) ?? '',
    el('dl', { class: 'facts' },
      el('dt', {}, 'Game'), el('dd', {}, r.gameId ?? '—'),
      el('dt', {}, 'Ruleset'), el('dd', {}, examination.rulesetTitle ?? r.ruleset ?? '—'),
      el('dt', {}, 'Commits'), el('dd', {}, String(r.commits)),
      el('dt', {}, 'Dice re-derived'), el('dd', {}, String(r.dice)),
      el('dt', {}, 'Commits replayed'), el('dd', {}, String(r.rulesReplayed)),
      el('dt', {}, 'Sealed'), el('dd', {}, r.sealed ? 'yes' : 'no'),
      el('dt', {}, 'Signed head'), el('dd', {}, r.head ? `#${r.head.seq} at ${r.head.at}` : 'none'),
      ...(r.clock ? [el('dt', {}, 'Time used'), el('dd', { 'data-time-used': '' }, timeUsedText(r.clock))] : []),
    ),
    el('h3', {}, 'Signers'),
    el('ul', { class: 'signers' }, ...signers.map((s) => el('li', { class: s.trusted ? 'ok' : 'bad' }, `${s.fingerprint} (${s.kid}): ${s.trusted ? (s.via === 'pinned' ? 'trusted: pinned' : `trusted through key-log statement ${s.via}`) : 'NOT trusted'}, ${s.commits} commit(s)${s.signedHead ? ' and the head' : ''}`))),
    el('h3', {}, 'Checks'),
    el('ul', { class: 'checks' }, ...checkItems(r.failures, r.sealed)),
  );
  const voided = new Map((r.voided ?? []).map((v) => [v.seq, v]));
  if (voided.size || r.rulings?.length) {
    report.append(
      el('h3', {}, 'Voids and rulings'),
      el('ul', { class: 'decisions' },
        ...(r.voided ?? []).map((v) => el('li', {}, `#${v.seq} voided by #${v.by}: ${v.reason}`)),
        ...(r.rulings ?? []).map((ruling) => el('li', {}, `Ruling #${ruling.seq}: ${ruling.text}${ruling.concerning.length ? ` (concerning ${ruling.concerning.map((seq) => `#${seq}`).join(', ')})` : ''}`)),
      ),
    );
  }
  const whole = failures.filter((f) => f.seq === 0);
  if (whole.length) report.append(el('h3', {}, 'The export as a whole'), el('ul', { class: 'failures' }, ...whole.map((f) => el('li', { class: 'bad' }, `${f.check}: ${f.reason}`))));

  if (commits && r.exitCode !== 2) {
    const bySeq = new Map<number, typeof failures>();
    for (const f of failures) if (f.seq > 0) bySeq.set(f.seq, [...(bySeq.get(f.seq) ?? []), f]);
    const rows = commits.map((c, i) => {
      const seq = i + 1;
      const mine = bySeq.get(seq) ?? [];
      const first = firstCommitFailure?.seq === seq;
      return el('tr', { class: `${mine.length ? 'bad' : 'ok'}${first ? ' first-failure' : ''}`, 'data-seq': seq },
        el('th', { scope: 'row' }, `#${seq}`, first ? el('strong', { class: 'marker' }, ' first failure') : null),
        el('td', {}, c.actor),
        el('td', {}, c.command),
        el('td', {}, String(c.dice)),
        el('td', {}, mine.length ? mine.map((f) => `${f.check}: ${f.reason}`).join('; ') : voided.has(seq) ? `ok, voided by #${voided.get(seq)!.by}` : 'ok'),
      );
    });
    report.append(
      el('table', { class: 'per-commit' },
        el('caption', {}, 'Per commit'),
        el('thead', {}, el('tr', {}, ...['Seq', 'Actor', 'Command', 'Dice', 'Result'].map((h) => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, ...rows)),
    );
  }
}

function checkItems(failures: { check: string }[], sealed: boolean): HTMLElement[] {
  const known = new Set(CHECKS);
  const names = [...CHECKS, ...failures.map((f) => f.check).filter((c) => !known.has(c))];
  return [...new Set(names)].map((name) => {
    const count = failures.filter((f) => f.check === name).length;
    const skipped = !count && !sealed && (name === 'dice' || name === 'serverSeed');
    return el('li', { class: count ? 'bad' : skipped ? 'skipped' : 'ok', 'data-check': name }, `${name}: ${count ? `${count} failure${count === 1 ? '' : 's'}` : skipped ? 'not checked until sealed' : 'passed'}`);
  });
}
