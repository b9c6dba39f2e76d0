// The verify page's report on a tournament export: the table `arbiter verify` prints (a line
// per game: game, ruleset, commits, sealed, result, in the CLI's words), the totals, and the
// tournament head's verdict (trust.md §7).
import type { TournamentExamination, TournamentGameResult } from '../../domain/verify/tournamentExport';
import { clear, el } from './dom';
import { tournamentBeaconsLine } from './beaconsLine';
import { EXIT } from '../../domain/verify/exitCodes';
import { tournamentCounts, tournamentGameVerdict } from '../../domain/verify/tournamentVerdict';


const gameResult = tournamentGameVerdict;

const gameName = (game: TournamentGameResult) => game.examination.report.gameId ?? `(line ${game.line})`;

function verdictOf(examination: TournamentExamination, trustConfigured: boolean): string {
  const { exitCode, games, problems } = examination;
  const failedGame = games.find((g) => g.examination.report.exitCode === EXIT.failed);
  const failedFile = problems.find((p) => p.exitCode === EXIT.failed);
  switch (exitCode) {
    case EXIT.ok:
      return `Verified: all ${games.length} games passed every check, everything is signed by a key you trust, and the signed tournament head lists exactly these games.`;
    case EXIT.failed:
      if (failedGame) return `Failed: game ${gameName(failedGame)}: ${gameResult(failedGame)}`;
      return `Failed: ${failedFile?.failures[0]?.reason ?? 'a check failed'}.`;
    case EXIT.unusable: {
      const unusableGame = games.find((g) => g.examination.report.exitCode === EXIT.unusable);
      const reason = unusableGame ? `game ${gameName(unusableGame)}: ${gameResult(unusableGame)}` : problems.find((p) => p.exitCode === EXIT.unusable)?.failures[0]?.reason;
      return `Not a tournament export that can be checked: ${reason ?? 'a line cannot be used'}.`;
    }
    default: {
      const partial = problems.find((p) => p.failures[0]?.check === 'tournament');
      if (!trustConfigured) return 'Consistent, but not conclusive: no trusted fingerprint is pinned. Pin the signer’s fingerprint if you trust it.';
      if (partial) return `Consistent, but not conclusive: ${partial.failures[0].reason}.`;
      return 'Consistent, but not conclusive: a game is not sealed yet, so its dice cannot be checked until the organizer seals it.';
    }
  }
}

export function renderTournamentReport(report: HTMLElement, examination: TournamentExamination, trustConfigured: boolean): void {
  const { header, games, problems, headSigner } = examination;
  clear(report);
  report.append(
    el('h2', { id: 'report-title' }, 'Report'),
    el('p', { class: `verdict exit-${examination.exitCode}`, 'data-exit-code': examination.exitCode }, verdictOf(examination, trustConfigured)),
    el('dl', { class: 'facts' },
      el('dt', {}, 'Tournament'), el('dd', {}, header.name ? `${header.tournamentId} (${header.name})` : header.tournamentId),
      el('dt', {}, 'Games'), el('dd', {}, `${games.length} in the file, ${header.games} announced`),
      el('dt', {}, 'Exported'), el('dd', {}, header.exportedAt),
    ),
    tournamentBeaconsLine(games.map((g) => g.examination.report)) ?? '',
    el('h3', {}, 'Tournament head'),
    el('p', { class: `tournament-head ${headSigner?.trusted ? 'ok' : 'bad'}`, 'data-tournament-head': '' }, headVerdict(examination, trustConfigured)),
  );
  if (problems.length) {
    report.append(el('ul', { class: 'failures', 'aria-label': 'Problems of the file as a whole' }, ...problems.map((p) => el('li', { class: p.exitCode === EXIT.inconclusive ? 'skipped' : 'bad' }, p.failures[0]?.reason ?? ''))));
  }
  const titles = ['Game', 'Ruleset', 'Commits', 'Sealed', 'Result'];
  report.append(
    el('table', { class: 'per-game' },
      el('caption', {}, 'Per game'),
      el('thead', {}, el('tr', {}, ...titles.map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, ...games.map((game) => {
        const r = game.examination.report;
        const bad = r.exitCode === EXIT.failed || r.exitCode === EXIT.unusable;
        return el('tr', { class: bad ? 'bad' : r.exitCode === EXIT.ok ? 'ok' : 'skipped', 'data-game': gameName(game) },
          el('th', { scope: 'row' }, gameName(game)),
          el('td', {}, r.ruleset ?? '-'),
          el('td', {}, String(r.commits)),
          el('td', {}, r.sealed ? 'yes' : 'no'),
          el('td', {}, gameResult(game)),
        );
      })),
    ),
    el('p', { class: 'totals' }, totals(examination, trustConfigured)),
  );
}

function headVerdict({ headSigner, problems }: TournamentExamination, trustConfigured: boolean): string {
  const headFailures = problems.filter((p) => p.exitCode === EXIT.failed && p.failures[0]?.check === 'tournament');
  if (!headSigner) return `Not checked: ${headFailures[0]?.failures[0]?.reason ?? 'the file has no valid tournament head'}.`;
  if (!trustConfigured) return `Signed by ${headSigner.fingerprint}, but no fingerprint is pinned: compare it with the one the organizer published.`;
  if (!headSigner.trusted) return `Signed by ${headSigner.fingerprint}, a key none of your trusted fingerprints reaches.`;
  if (headFailures.length) return `Signed by ${headSigner.fingerprint}, a key you trust, but the file does not match it: ${headFailures.map((p) => p.failures[0].reason).join('; ')}.`;
  return `Signed by ${headSigner.fingerprint}, a key you trust, and the file holds exactly the games it lists, in its order.`;
}

/** The CLI's totals line: "2 games: 1 OK, 1 FAILED". */
function totals(examination: TournamentExamination, trustConfigured: boolean): string {
  return `${examination.games.length} games: ${tournamentCounts(examination, trustConfigured).join(', ')}`;
}
