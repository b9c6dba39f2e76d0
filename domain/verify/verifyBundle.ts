import { jsonEqual } from '../canonicalJson';
import { GivenDice, type Die } from '../dice';
import { DomainError } from '../errors';
import { DiceStream } from '../fairness/diceStream';
import { commitmentOf, gameKeyOf, parseSeedHex, type EntropyEntry } from '../fairness/gameKey';
import { commitHash, GENESIS_PREV_HASH, publicKeyOf, signatureIsValid, type Commit, type Ed25519PublicJwk } from '../fairness/hashChain';
import { authorize, checkPayload, decideCreate, decideGame } from '../game/decideGame';
import { CreateGameBody } from '../game/gameCommands';
import { evolveGame, type GameState } from '../game/gameState';
import { ORGANIZER } from '../ruleset';
import { BundleShape, CommitShape, firstIssue } from './bundleShape';
import { findRuleset } from '../rulesets/registry';

/** The export bundle of fairness-v1 §7. */
export interface ExportBundle {
  gameId: string;
  ruleset: string;
  commitment: string;
  commits: Commit[];
  keys: { keys: Ed25519PublicJwk[] };
  serverSeed?: string;
}

export interface VerificationFailure {
  seq: number;
  check: string;
  reason: string;
}

export interface VerificationReport {
  ok: boolean;
  checkedCommits: number;
  checkedDice: number;
  sealed: boolean;
  failures: VerificationFailure[];
}

/**
 * fairness-v1 §7.3: checks the chain (every hash, link and signature), then,
 * once sealed, the seed and every die, then replays every command through the
 * ruleset with the recorded dice and compares the events. Pure: no network.
 */
export function verifyBundle(bundle: ExportBundle): VerificationReport {
  const failures: VerificationFailure[] = [];
  const fail = (seq: number, check: string, reason: string) => failures.push({ seq, check, reason });
  const shape = BundleShape.safeParse(bundle);
  if (!shape.success) {
    fail(0, 'structure', `not an export bundle: ${firstIssue(shape.error)}`);
    return { ok: false, checkedCommits: 0, checkedDice: 0, sealed: false, failures };
  }
  const commits = bundle.commits;
  // Everything after a malformed commit is checked for its chain only.
  const wellFormed = commits.findIndex((commit, index) => {
    const parsed = CommitShape.safeParse(commit);
    if (!parsed.success) fail(index + 1, 'structure', firstIssue(parsed.error));
    return !parsed.success;
  });
  const readable = wellFormed < 0 ? commits : commits.slice(0, wellFormed);

  const keys = new Map(bundle.keys.keys.map((k) => [k.kid, publicKeyOf(k as Ed25519PublicJwk)]));
  let sealedAt = 0;
  commits.forEach((commit, index) => {
    const seq = index + 1;
    if (typeof commit !== 'object' || commit === null || Array.isArray(commit)) return; // reported as structure
    if (commit.seq !== seq) fail(seq, 'sequence', `expected seq ${seq}, found ${commit.seq}`);
    if (commit.gameId !== bundle.gameId) fail(seq, 'gameId', `commit belongs to ${commit.gameId}`);
    const expectedPrev = index === 0 ? GENESIS_PREV_HASH : commits[index - 1]?.hash;
    if (commit.prevHash !== expectedPrev) fail(seq, 'prevHash', 'does not link to the previous commit');
    let hash: string | undefined;
    try {
      hash = commitHash(commit);
    } catch (error) {
      fail(seq, 'hash', `cannot canonicalize the record: ${(error as Error).message}`);
    }
    if (hash !== undefined && hash !== commit.hash) fail(seq, 'hash', 'the record does not hash to its "hash"');
    const key = keys.get(commit.kid);
    if (!key) fail(seq, 'signature', `no Ed25519 public key "${commit.kid}" in the bundle`);
    else if (!signatureIsValid(commit.hash, commit.signature, key)) fail(seq, 'signature', 'the signature does not match the hash');
    if (sealedAt) fail(seq, 'sealed', `a commit follows GameSealed at seq ${sealedAt}`);
    if (Array.isArray(commit.events) && commit.events.some((e) => e?.type === 'GameSealed')) sealedAt = seq;
  });
  if (readable.length === 0) return { ok: false, checkedCommits: commits.length, checkedDice: 0, sealed: sealedAt > 0, failures: sorted(failures) };

  const first = readable[0];
  const created = first.events[0];
  if (first.command.type !== 'CreateGame' || created?.type !== 'GameCreated') {
    fail(1, 'creation', 'commit 1 is not the creation of the game');
  } else if (created.data.commitment !== bundle.commitment) {
    fail(1, 'commitment', 'the bundle commitment differs from the one in GameCreated');
  }

  const sealed = sealedAt > 0;
  let checkedDice = 0;
  if (sealed && sealedAt <= readable.length) {
    const sealedSeed = String(commits[sealedAt - 1].events.find((e) => e.type === 'GameSealed')?.data.serverSeed);
    const seed = parseSeedHex(bundle.serverSeed ?? '');
    if (bundle.serverSeed !== sealedSeed) fail(sealedAt, 'serverSeed', 'the bundle seed differs from the one in GameSealed');
    if (!seed) fail(sealedAt, 'serverSeed', 'the server seed is not 64 lowercase hex digits');
    else if (commitmentOf(seed) !== bundle.commitment) fail(sealedAt, 'commitment', 'SHA-256 of the server seed is not the commitment');
    else checkedDice = checkDice(bundle.gameId, seed, readable, fail);
  }

  replayRules(bundle, readable, fail);
  return { ok: failures.length === 0, checkedCommits: commits.length, checkedDice, sealed, failures: sorted(failures) };
}

/** First failure first; a stable sort keeps the order checks ran in within one seq. */
function sorted(failures: VerificationFailure[]): VerificationFailure[] {
  return [...failures].sort((a, b) => a.seq - b.seq);
}

/** fairness-v1 §4: every recorded die equals the one the seed gives. */
function checkDice(gameId: string, seed: Buffer, commits: Commit[], fail: (seq: number, check: string, reason: string) => void): number {
  const entropy: EntropyEntry[] = [];
  let gameKey: Buffer | undefined;
  let checked = 0;
  for (const commit of commits) {
    for (const event of commit.events) {
      if (event.type === 'EntropyContributed') {
        if (gameKey) fail(commit.seq, 'entropy', 'entropy was added after the first die');
        entropy.push([String(event.data.by), String(event.data.entropy)]);
      }
    }
    if (commit.dice.length === 0) continue;
    gameKey ??= gameKeyOf(seed, gameId, entropy);
    const stream = new DiceStream(gameKey, commit.seq);
    for (const [i, die] of commit.dice.entries()) {
      let expected: number;
      try {
        expected = stream.roll(die.sides);
      } catch {
        fail(commit.seq, 'dice', `die ${i + 1} has ${die.sides} sides, outside 2 to 1000`);
        break;
      }
      checked += 1;
      if (expected !== die.value) {
        fail(commit.seq, 'dice', `die ${i + 1} (d${die.sides}) is ${die.value}, the seed gives ${expected}`);
        break;
      }
    }
  }
  return checked;
}

/** fairness-v1 §7.3: the rules were applied correctly. Stops at the first divergence. */
function replayRules(bundle: ExportBundle, commits: Commit[], fail: (seq: number, check: string, reason: string) => void): void {
  let state: GameState | undefined;
  for (const commit of commits) {
    const reason = replayOne(state, commit, bundle);
    if (reason) {
      fail(commit.seq, 'rules', reason);
      return;
    }
    try {
      state = evolveGame(state, commit);
    } catch (error) {
      fail(commit.seq, 'rules', (error as Error).message);
      return;
    }
  }
}

function replayOne(state: GameState | undefined, commit: Commit, bundle: ExportBundle): string | undefined {
  try {
    if (!state) {
      const body = CreateGameBody.safeParse(commit.command?.payload);
      const ruleset = body.success ? findRuleset(body.data.ruleset) : undefined;
      if (!body.success || !ruleset) return 'the creation command is not a valid game';
      if (commit.actor !== ORGANIZER) return 'a game is created by the organizer';
      if (commit.dice.length) return 'the creation rolls no dice';
      return sameEvents([decideCreate(ruleset, body.data, bundle.commitment)], commit.events);
    }
    const check = checkPayload(state.ruleset, commit.command.type, commit.command.payload);
    if (!check.ok) return `the command ${commit.command.type} is not valid here`;
    authorize(state, commit.command.type, commit.actor, commit.as === ORGANIZER);
    const dice = new GivenDice(commit.dice.map((d) => d.value));
    const sealing = commit.events.find((e) => e.type === 'GameSealed');
    const events = decideGame(state, { type: commit.command.type, payload: check.payload }, {
      actor: commit.actor,
      dice,
      now: commit.recordedAt,
      serverSeed: sealing ? String(sealing.data.serverSeed) : undefined,
    });
    if (!sameDice(dice.drawn, commit.dice)) return 'the recorded dice are not the dice the rules draw';
    return sameEvents(events, commit.events);
  } catch (error) {
    if (error instanceof DomainError) return `the rules refuse this command: ${error.message}`;
    return `the command cannot be replayed: ${(error as Error).message}`;
  }
}

function sameDice(drawn: readonly Die[], recorded: readonly Die[]): boolean {
  return drawn.length === recorded.length && drawn.every((d, i) => d.sides === recorded[i].sides && d.value === recorded[i].value);
}

function sameEvents(replayed: unknown, recorded: unknown): string | undefined {
  return jsonEqual(replayed, recorded) ? undefined : 'the recorded events differ from what the rules produce';
}
