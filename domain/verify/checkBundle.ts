import { commitmentOf, parseSeedHex } from '../fairness/gameKey';
import type { Commit } from '../fairness/hashChain';
import { BundleShape, CommitShape, firstIssue } from './bundleShape';
import { checkBeacons, gameBeaconChain, type BeaconVerifyOptions } from './checkBeacons';
import { checkChain } from './checkChain';
import { noProgress, type CheckProgress } from './checkProgress';
import { checkDice } from './checkDice';
import { sortedFailures, type ExportBundle, type VerificationFailure } from './exportBundle';
import { replayRules } from './replayRules';
import { recordedClock, type RecordedClock } from './timeUsed';
import { messageOf } from './shown';

/** What fairness-v1 §7 finds in an export, before any question of trust. */
export interface BundleCheck {
  /** The export has the top-level shape of one; when not, nothing else was checked. */
  isExport: boolean;
  commits: number;
  dice: number;
  /** How many commits replayed through the ruleset as recorded, from the first. */
  rulesReplayed: number;
  sealed: boolean;
  /** A beacon game's chain, and how many distinct drand rounds had their signature checked (beacon.md §5). */
  beacons?: { checked: number; chain: string };
  /** Whose move it is and the time each side used, re-derived from the commits' recordedAt (docs/clocks.md). */
  clock?: RecordedClock;
  failures: VerificationFailure[];
}

/**
 * fairness-v1 §7: the chain (every hash, link and signature), then, once sealed, the
 * seed and every die, then every command replayed through the ruleset; in a beacon game,
 * beacon.md §5 too, with the BLS check `beacon` gives. Pure, no network, and it never
 * throws, whatever it is given (`progress` is told where it is).
 */
export function checkBundle(bundle: unknown, progress: CheckProgress = noProgress, beacon?: BeaconVerifyOptions): BundleCheck {
  const failures: VerificationFailure[] = [];
  const fail = (seq: number, check: string, reason: string) => void failures.push({ seq, check, reason });
  const shape = BundleShape.safeParse(bundle);
  if (!shape.success) {
    fail(0, 'structure', `not an export bundle: ${firstIssue(shape.error)}`);
    return { isExport: false, commits: 0, dice: 0, rulesReplayed: 0, sealed: false, failures };
  }
  const exported = bundle as ExportBundle;
  const result: BundleCheck = { isExport: true, commits: exported.commits.length, dice: 0, rulesReplayed: 0, sealed: false, failures };
  try {
    checkConsistency(exported, result, fail, progress, beacon);
  } catch (error) {
    fail(0, 'structure', `the export cannot be checked: ${messageOf(error)}`);
  }
  result.failures = sortedFailures(failures);
  return result;
}

function checkConsistency(
  bundle: ExportBundle,
  result: BundleCheck,
  fail: (seq: number, check: string, reason: string) => void,
  progress: CheckProgress,
  beaconOptions: BeaconVerifyOptions | undefined,
): void {
  const commits = bundle.commits;
  // Everything after a malformed commit is checked for its chain only.
  const firstMalformed = commits.findIndex((commit, index) => {
    const parsed = CommitShape.safeParse(commit);
    if (!parsed.success) fail(index + 1, 'structure', firstIssue(parsed.error));
    return !parsed.success;
  });
  const readable: Commit[] = firstMalformed < 0 ? commits : commits.slice(0, firstMalformed);

  const sealedAt = checkChain(bundle, fail, progress);
  result.sealed = sealedAt > 0;
  if (readable.length === 0) return;

  const first = readable[0];
  const created = first.events[0];
  const beacon = created?.type === 'GameCreated' ? gameBeaconChain(created.data.beacon, beaconOptions, fail) : undefined;
  if (first.command.type !== 'CreateGame' || created?.type !== 'GameCreated') {
    fail(1, 'creation', 'commit 1 is not the creation of the game');
  } else {
    if (created.data.commitment !== bundle.commitment) fail(1, 'commitment', 'the bundle commitment differs from the one in GameCreated');
    if (created.data.ruleset !== bundle.ruleset) {
      fail(1, 'ruleset', `the export names the ruleset ${JSON.stringify(bundle.ruleset)}, but the game was created with ${JSON.stringify(created.data.ruleset)}`);
    }
  }

  if (sealedAt > 0 && sealedAt <= readable.length) {
    const sealedSeed = readable[sealedAt - 1].events.find((e) => e.type === 'GameSealed')?.data.serverSeed;
    const seed = parseSeedHex(bundle.serverSeed ?? '');
    if (bundle.serverSeed !== sealedSeed) fail(sealedAt, 'serverSeed', 'the bundle seed differs from the one in GameSealed');
    if (!seed) fail(sealedAt, 'serverSeed', 'the server seed is not 64 lowercase hex digits');
    else if (commitmentOf(seed) !== bundle.commitment) fail(sealedAt, 'commitment', 'SHA-256 of the server seed is not the commitment');
    else result.dice = checkDice(bundle.gameId, seed, readable, fail, progress, beacon);
  }
  if (beacon) result.beacons = { checked: checkBeacons(readable, beacon, beaconOptions?.check, fail), chain: beacon.chain };

  const { replayed, game } = replayRules(bundle.commitment, readable, fail, progress);
  result.rulesReplayed = replayed;
  // The clock of a game replayed to its end: a prefix's figures would not be the game's.
  if (game && replayed === commits.length) result.clock = recordedClock(game);
}
