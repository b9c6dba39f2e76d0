// /#/verify: an export checked entirely in this browser, by the verifier the CLI runs
// (domain/verify/verifyExport.ts), against fingerprints the person pins. Nothing is uploaded.
import { parseStrictJson } from '../../domain/json/parseStrictJson';
import { examineExport, type ExportExamination } from '../../domain/verify/verifyExport';
import { gamePath, parseGameLink, request, serverKeyDocument } from './api';
import { clear, el, field, statusLine } from './dom';

const CHECKS = ['structure', 'sequence', 'gameId', 'prevHash', 'hash', 'signature', 'creation', 'commitment', 'ruleset', 'serverSeed', 'dice', 'entropy', 'rules', 'keys', 'keyLog', 'head', 'trust', 'retired', 'sealed'];

interface ExportedCommit {
  seq?: unknown;
  actor?: unknown;
  command?: { type?: unknown };
  dice?: unknown[];
}

export function verifyPage(root: HTMLElement, params: URLSearchParams): () => void {
  const stop = new AbortController();
  const status = statusLine();
  const file = el('input', { type: 'file', accept: 'application/json,.json' });
  const drop = el('div', { class: 'drop-zone' }, 'or drop an export file here');
  const link = el('input', { type: 'url', class: 'link', placeholder: `${location.origin}/#/games/…?token=…`, autocomplete: 'off' });
  const load = el('button', { type: 'button' }, 'Load the game’s export');
  const pins = el('textarea', { rows: 2, spellcheck: 'false', class: 'fingerprints' });
  const allowUnsealed = el('input', { type: 'checkbox' });
  allowUnsealed.id = 'allow-unsealed';
  const again = el('button', { type: 'button' }, 'Verify again');
  const report = el('section', { class: 'report', 'aria-labelledby': 'report-title', tabindex: '-1' });
  let source: { name: string; text: string } | undefined;
  // The server's key log: a key it retired is refused for anything signed after its retirement, even when a file leaves the log out.
  let keyLogs: unknown[] = [];

  clear(root);
  root.append(
    el('h1', {}, 'Verify an export'),
    el('p', {}, 'The export is checked here, in your browser, by the same code as ', el('code', {}, 'arbiter verify'), ': it is not uploaded. Every signature must come from a key you pin below, never from a key the file supplies.'),
    el('section', { class: 'inputs', 'aria-label': 'The export' }, field('Export file (JSON)', file), drop, el('div', { class: 'row' }, field('or a game link', link, 'its token reads the export from this server'), load)),
    field('Trusted fingerprints (one per line)', pins, 'Prefilled with every key this server lists (GET /keys), the current one first, then those it retired: games signed before a rotation need theirs. Compare them with the ones the organizer published.'),
    el('div', { class: 'field checkbox' }, allowUnsealed, el('label', { for: allowUnsealed.id }, 'Accept a game not sealed yet (its dice cannot be checked until then)')),
    again,
    status,
    report,
  );

  const run = () => {
    if (!source) return status.say('Choose an export file first.', 'error');
    const trusted = pins.value.split(/[\s,]+/).map((p) => p.trim()).filter(Boolean);
    let bundle: unknown;
    try {
      bundle = parseStrictJson(source.text);
    } catch (error) {
      clear(report);
      return status.say(`${source.name} is not JSON an export can be: ${(error as Error).message}`, 'error');
    }
    const examination = examineExport(bundle, { trusted, keyLogs, allowUnsealed: allowUnsealed.checked });
    status.say(`Checked ${source.name}.`);
    renderReport(report, examination, bundle);
    report.focus();
  };

  const take = async (name: string, text: Promise<string>) => {
    try {
      source = { name, text: await text };
      run();
    } catch {
      status.say(`${name} could not be read.`, 'error');
    }
  };
  file.addEventListener('change', () => {
    const chosen = file.files?.[0];
    if (chosen) void take(chosen.name, chosen.text());
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
    if (dropped) void take(dropped.name, dropped.text());
  });
  const loadLink = async (gameId: string, token: string) => {
    status.say('Loading the export…');
    const response = await request('GET', gamePath(gameId, '/export'), { token, signal: stop.signal }).catch(() => undefined);
    if (!response) return status.say('The server cannot be reached.', 'error');
    if (!response.ok) return status.say(response.status === 401 ? 'This link does not open the game (401).' : `The server answered ${response.status}.`, 'error');
    await take(`the export of ${gameId}`, response.text());
  };
  load.addEventListener('click', () => {
    const parsed = parseGameLink(link.value.trim());
    if (!parsed) return status.say('That is not a game link (…/#/games/{id}?token=…).', 'error');
    void loadLink(parsed.gameId, parsed.token);
  });
  again.addEventListener('click', run);
  allowUnsealed.addEventListener('change', () => source && run());

  void serverKeyDocument()
    .then(({ keys, log }) => {
      keyLogs = [log];
      const currentFirst = [...keys.filter((k) => k.status === 'current'), ...keys.filter((k) => k.status !== 'current')];
      if (!pins.value) pins.value = currentFirst.map((k) => k.fingerprint).join('\n');
      const game = params.get('game');
      if (game) {
        link.value = `${location.origin}/#/games/${encodeURIComponent(game)}?token=${encodeURIComponent(params.get('token') ?? '')}`;
        void loadLink(game, params.get('token') ?? '');
      }
    })
    .catch(() => status.say('The server’s keys could not be read: paste the fingerprint you trust.', 'error'));
  return () => stop.abort();
}

const VERDICTS: Record<number, string> = {
  0: 'Verified: every check passed, everything is signed by a key you trust, and the game is sealed.',
  1: 'Failed: a check failed.',
  2: 'Not an export that can be checked.',
  3: 'Consistent, but not conclusive: ',
};

function renderReport(report: HTMLElement, examination: ExportExamination, bundle: unknown): void {
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
    el('dl', { class: 'facts' },
      el('dt', {}, 'Game'), el('dd', {}, r.gameId ?? '—'),
      el('dt', {}, 'Ruleset'), el('dd', {}, examination.rulesetTitle ?? r.ruleset ?? '—'),
      el('dt', {}, 'Commits'), el('dd', {}, String(r.commits)),
      el('dt', {}, 'Dice re-derived'), el('dd', {}, String(r.dice)),
      el('dt', {}, 'Commits replayed'), el('dd', {}, String(r.rulesReplayed)),
      el('dt', {}, 'Sealed'), el('dd', {}, r.sealed ? 'yes' : 'no'),
      el('dt', {}, 'Signed head'), el('dd', {}, r.head ? `#${r.head.seq} at ${r.head.at}` : 'none'),
    ),
    el('h3', {}, 'Signers'),
    el('ul', { class: 'signers' }, ...signers.map((s) => el('li', { class: s.trusted ? 'ok' : 'bad' }, `${s.fingerprint} (${s.kid}): ${s.trusted ? (s.via === 'pinned' ? 'trusted: pinned' : `trusted through key-log statement ${s.via}`) : 'NOT trusted'}, ${s.commits} commit(s)${s.signedHead ? ' and the head' : ''}`))),
    el('h3', {}, 'Checks'),
    el('ul', { class: 'checks' }, ...checkItems(r.failures, r.sealed)),
  );
  const whole = failures.filter((f) => f.seq === 0);
  if (whole.length) report.append(el('h3', {}, 'The export as a whole'), el('ul', { class: 'failures' }, ...whole.map((f) => el('li', { class: 'bad' }, `${f.check}: ${f.reason}`))));

  const commits = (bundle as { commits?: unknown }).commits;
  if (Array.isArray(commits) && r.exitCode !== 2) {
    const bySeq = new Map<number, typeof failures>();
    for (const f of failures) if (f.seq > 0) bySeq.set(f.seq, [...(bySeq.get(f.seq) ?? []), f]);
    const rows = (commits as ExportedCommit[]).map((c, i) => {
      const seq = i + 1;
      const mine = bySeq.get(seq) ?? [];
      const first = firstCommitFailure?.seq === seq;
      return el('tr', { class: `${mine.length ? 'bad' : 'ok'}${first ? ' first-failure' : ''}`, 'data-seq': seq },
        el('th', { scope: 'row' }, `#${seq}`, first ? el('strong', { class: 'marker' }, ' first failure') : null),
        el('td', {}, typeof c?.actor === 'string' ? c.actor : '?'),
        el('td', {}, typeof c?.command?.type === 'string' ? c.command.type : '?'),
        el('td', {}, String(Array.isArray(c?.dice) ? c.dice.length : 0)),
        el('td', {}, mine.length ? mine.map((f) => `${f.check}: ${f.reason}`).join('; ') : 'ok'),
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
