import type { Ed25519PublicJwk } from '../fairness/hashChain';
import { findRuleset } from '../rulesets/registry';
import { fingerprintOf } from '../trust/fingerprint';
import { walkKeyLog, type TrustedKey } from '../trust/keyLog';
import { keyLogForks, retirementOf, signedAfterRetirement, type Retirement } from '../trust/retirement';
import { checkBundle } from './checkBundle';
import type { BeaconVerifyOptions } from './checkBeacons';
import { noProgress, type CheckProgress } from './checkProgress';
import { checkHead } from './checkHead';
import { decisionsOf } from './decisions';
import { sortedFailures, type ExportBundle, type VerificationFailure } from './exportBundle';
import { messageOf } from './shown';
import { signingKeysOf } from './signingKeys';
import { EXIT, type ExitCode, type VerifierReport } from './verifierReport';

export interface VerifyOptions {
  /** Fingerprints (`ed25519:…`) the person trusts. Keys inside the export are never trusted by themselves. */
  trusted: readonly string[];
  /** An unsealed game, whose dice cannot be checked yet, may still exit 0. */
  allowUnsealed?: boolean;
  /**
   * Key logs the person keeps (a /keys document saved or fetched when they pinned): their
   * retirements count as well as the export's own (trust.md §6), so that a file made with
   * a retired key cannot escape them by leaving its key log out.
   */
  keyLogs?: readonly unknown[];
  /**
   * Beacon games (beacon.md §5): the BLS check, which each surface passes in (domain/verify
   * carries no BLS code), and the chain hashes the person pinned. A beacon game checked
   * without `check` fails; other games never need it.
   */
  beacon?: BeaconVerifyOptions;
}

export interface Signer {
  fingerprint: string;
  kid: string;
  trusted: boolean;
  /** How it came to be trusted: pinned, or through key-log statement n. */
  via?: TrustedKey['via'];
  /** The commits it signed, and whether it signed the head. */
  commits: number;
  signedHead: boolean;
  /** The statement that retired it, in the export's key log or one the person keeps. */
  retired?: Retirement;
}

/** The report, and what a person reading it needs besides. */
export interface ExportExamination {
  report: VerifierReport;
  signers: Signer[];
  /** The ruleset's title, when this verifier knows the ruleset. */
  rulesetTitle?: string;
  /** Key-log statements that made a key trusted. */
  keyLogUsed: number[];
}

/**
 * trust.md §5: fairness-v1 §7 (verifyBundle's checks), plus the signed head of §4,
 * plus who signed: each commit's key is looked up by kid in the export's `keys` and
 * counts by its fingerprint only when that fingerprint is trusted, pinned or reached
 * through the export's key log. The report is exactly what `arbiter verify --json`
 * prints. Pure: no network; never throws.
 */
export function verifyExport(bundle: unknown, options: VerifyOptions): VerifierReport {
  return examineExport(bundle, options).report;
}

/** The report with who signed; `progress` is told after each commit of each pass (a page shows it). */
export function examineExport(bundle: unknown, options: VerifyOptions, progress: CheckProgress = noProgress): ExportExamination {
  const check = checkBundle(bundle, progress, options.beacon);
  if (!check.isExport) {
    const report = { ok: false, exitCode: EXIT.unusable, gameId: null, ruleset: null, commits: 0, dice: 0, rulesReplayed: 0, sealed: false, signers: [], head: null, failures: check.failures };
    return { report, signers: [], keyLogUsed: [] };
  }
  const exported = bundle as ExportBundle;
  const failures: VerificationFailure[] = [...check.failures];
  const fail = (seq: number, check: string, reason: string) => void failures.push({ seq, check, reason });
  let signers: Signer[] = [];
  let keyLogUsed: number[] = [];
  let head: VerifierReport['head'] = null;
  try {
    ({ signers, keyLogUsed, head } = checkSigners(exported, check.sealed, options, fail));
  } catch (error) {
    fail(0, 'structure', `the export cannot be checked: ${messageOf(error)}`);
  }
  const { voided, rulings } = decisionsOf(exported.commits, check.rulesReplayed);
  const exitCode: ExitCode =
    failures.length > 0 ? EXIT.failed : options.trusted.length === 0 || (!check.sealed && !options.allowUnsealed) ? EXIT.inconclusive : EXIT.ok;
  return {
    report: {
      ok: exitCode === EXIT.ok,
      exitCode,
      gameId: exported.gameId,
      ruleset: exported.ruleset,
      commits: check.commits,
      dice: check.dice,
      rulesReplayed: check.rulesReplayed,
      sealed: check.sealed,
      signers: signers.map(({ fingerprint, trusted }) => ({ fingerprint, trusted })),
      head,
      failures: sortedFailures(failures),
      ...(voided.length ? { voided } : {}),
      ...(rulings.length ? { rulings } : {}),
      ...(check.beacons ? { beacons: check.beacons } : {}),
      ...(check.clock ? { clock: check.clock } : {}),
    },
    signers,
    rulesetTitle: findRuleset(exported.ruleset)?.title,
    keyLogUsed,
  };
}

function checkSigners(bundle: ExportBundle, sealed: boolean, options: VerifyOptions, fail: (seq: number, check: string, reason: string) => void) {
  const keysByKid = signingKeysOf(bundle.keys.keys, fail);
  const walk = walkKeyLog(bundle.keyLog, options.trusted, [...keysByKid.values()]);
  if (walk.failure) fail(0, 'keyLog', `${walk.failure.n ? `key log statement ${walk.failure.n}` : 'the key log'} ${walk.failure.reason}`);

  const keyLogs = [bundle.keyLog, ...(options.keyLogs ?? [])];
  for (const fork of keyLogForks(...keyLogs)) fail(0, 'keyLog', fork);
  const signers = new Map<string, Signer & { firstSeq: number }>();
  const signerOf = (key: Ed25519PublicJwk, seq: number) => {
    const fingerprint = fingerprintOf(key);
    let signer = signers.get(fingerprint);
    if (!signer) {
      const trusted = walk.trusted.get(fingerprint);
      const retired = retirementOf(fingerprint, ...keyLogs);
      signer = { fingerprint, kid: key.kid, trusted: trusted !== undefined, via: trusted?.via, commits: 0, signedHead: false, firstSeq: seq, ...(retired ? { retired } : {}) };
      signers.set(fingerprint, signer);
    }
    return signer;
  };
  bundle.commits.forEach((commit, index) => {
    const key = typeof commit?.kid === 'string' ? keysByKid.get(commit.kid) : undefined;
    if (!key) return; // an unknown kid already failed the signature check
    const signer = signerOf(key, index + 1);
    signer.commits += 1;
    const late = signedAfterRetirement(signer.fingerprint, signer.retired, commit.recordedAt);
    if (late) fail(index + 1, 'retired', late);
  });
  const head = checkHead(bundle, sealed, keysByKid, fail);
  if (head.signer) {
    const signer = signerOf(head.signer, 0);
    signer.signedHead = true;
    const late = signedAfterRetirement(signer.fingerprint, signer.retired, head.at);
    if (late) fail(0, 'retired', `the head was ${late}`);
  }

  if (options.trusted.length > 0) {
    for (const signer of signers.values()) {
      if (signer.trusted) continue;
      const what = signer.commits ? `${signer.commits} commit${signer.commits === 1 ? '' : 's'}${signer.signedHead ? ' and the head' : ''}` : 'the head';
      fail(signer.commits ? signer.firstSeq : 0, 'trust', `${what} signed by ${signer.fingerprint}, ${untrustedSigner(signer)}`);
    }
  }
  return {
    signers: [...signers.values()].map(({ firstSeq: _first, ...signer }) => signer),
    keyLogUsed: walk.used,
    head: head.seq !== undefined && head.at !== undefined ? { seq: head.seq, at: head.at } : null,
  };
}

/**
 * What the person needs to know of a signer none of their pins reaches. A key a key-log
 * statement retired (trust.md §6) is usually an honest game signed before a rotation,
 * checked by someone who pinned only the new key: say so and how to pin it. The file's
 * word is not trusted for it: the person checks it against the server's /keys.
 */
function untrustedSigner(signer: Signer): string {
  const unreached = 'a key none of your trusted fingerprints reaches';
  if (!signer.retired) return unreached;
  return (
    `${unreached}: a retired key of the server (key log statement ${signer.retired.statement} retired it), which you did not pin. ` +
    `If the server's /keys lists it too, pin every key it lists: arbiter trust add <server URL>, or add --trust ${signer.fingerprint}`
  );
}
