// What the verify page and its worker (verifyWorker.ts) say to each other. Type-only: the
// page holds no verifier code, the worker all of it.
import type { CheckStep } from '../../domain/verify/checkProgress';
import type { TournamentExamination } from '../../domain/verify/tournamentExport';
import type { ExportExamination } from '../../domain/verify/verifyExport';

/** Where the worker's script is served (web/build.ts builds it as a second entry). */
export const VERIFY_WORKER_URL = '/assets/verifyWorker.js';
/** Where the BLS code is served (web/build.ts BEACON_CHECK_ASSET): the worker imports it for beacon games only. */
export const BEACON_CHECK_URL = '/assets/beaconCheck.js';

export interface VerifyRequest {
  /** The export as the person gave it: a chosen or dropped file, or the answer to a link. */
  file: Blob;
  trusted: string[];
  keyLogs: unknown[];
  allowUnsealed: boolean;
  /** drand chain hashes the person pinned (beacon.md §5): chains other than quicknet, trusted as the file describes them. */
  trustedChains: string[];
}

/** What the table of commits shows of each, read in the worker so that the page never parses the file. */
export interface CommitRow {
  actor: string;
  command: string;
  dice: number;
}

export type VerifyMessage =
  | { kind: 'progress'; unit: 'commits'; step: CheckStep; done: number; total: number }
  | { kind: 'progress'; unit: 'games'; done: number; total: number }
  | { kind: 'game'; examination: ExportExamination; commits: CommitRow[] | null }
  | { kind: 'tournament'; examination: TournamentExamination }
  /** The file is neither: not JSON, or a first line that claims to be a tournament header and is not one. `reason` follows "<file> is ". */
  | { kind: 'unusable'; reason: string }
  /** The check itself broke: a fault of this page, not of the file. */
  | { kind: 'error'; reason: string };
