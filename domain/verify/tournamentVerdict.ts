import { EXIT } from './exitCodes';
import type { TournamentGameResult } from './tournamentExport';

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
