import { checkBundle } from './checkBundle';
import type { BeaconVerifyOptions } from './checkBeacons';
import type { ExportBundle, VerificationFailure } from './exportBundle';

export type { ExportBundle, VerificationFailure } from './exportBundle';

export interface VerificationReport {
  ok: boolean;
  checkedCommits: number;
  checkedDice: number;
  sealed: boolean;
  failures: VerificationFailure[];
}

/**
 * fairness-v1 §7.3: is the export consistent with itself? Every hash, link and
 * signature (by the keys the export lists), once sealed the seed and every die,
 * and every command replayed through the ruleset. Whether the signing keys are
 * trusted is verifyExport's question (trust.md). Pure: no network; never throws.
 */
export function verifyBundle(bundle: ExportBundle, beacon?: BeaconVerifyOptions): VerificationReport {
  const check = checkBundle(bundle, undefined, beacon);
  return { ok: check.failures.length === 0, checkedCommits: check.commits, checkedDice: check.dice, sealed: check.sealed, failures: check.failures };
}
