import { EXIT } from './exitCodes';
import type { TournamentExamination, TournamentGameResult } from './tournamentExport';

/** A game's result in a tournament's verification, in the words the CLI's table, the verify page and the tournament page all print. */
export function tournamentGameVerdict({ examination }: TournamentGameResult): string {
  const { report } = examination;
  switch (report.exitCode) {
    case EXIT.ok:
      return report.sealed ? 'OK' : 'OK so far (not sealed)';
    case EXIT.failed: {
      const [first] = report.failures;
      return `FAILED${first?.seq ? ` at seq ${first.seq}` : ''} (${first?.check}): ${first?.reason}`;
    }
    case EXIT.unusable:
      return `UNUSABLE: ${report.failures[0]?.reason ?? 'not an export'}`;
    default:
      return report.signers.some((s) => !s.trusted) ? 'NOT VERIFIED (no trusted key configured)' : 'NOT SEALED (dice not checked yet)';
  }
}

/** How many games ended each way, in the same words everywhere: ["2 OK", "1 FAILED"]; the not-conclusive ones as not verified with no trusted key, else not sealed. */
export function tournamentCounts({ games }: Pick<TournamentExamination, 'games'>, trustConfigured: boolean): string[] {
  const count = (code: number) => games.filter((g) => g.examination.report.exitCode === code).length;
  return [
    `${count(EXIT.ok)} OK`,
    count(EXIT.failed) ? `${count(EXIT.failed)} FAILED` : '',
    count(EXIT.unusable) ? `${count(EXIT.unusable)} unusable` : '',
    count(EXIT.inconclusive) ? `${count(EXIT.inconclusive)} ${trustConfigured ? 'not sealed' : 'not verified'}` : '',
  ].filter(Boolean);
}
