// Exports built from the domain alone, signed with keys the test controls: what a
// server would produce, and what a forger could.
import { generateKeyPairSync, sign } from 'node:crypto';
import { FairnessDice } from '../../../domain/dice';
import { commitmentOf, gameKeyOf } from '../../../domain/fairness/gameKey';
import type { Commit, Ed25519PublicJwk } from '../../../domain/fairness/hashChain';
import { buildCommit } from '../../../domain/game/buildCommit';
import { checkPayload, decideCreate, decideGame } from '../../../domain/game/decideGame';
import { evolveGame, type GameState } from '../../../domain/game/gameState';
import { findRuleset } from '../../../domain/rulesets/registry';
import { fingerprintOf } from '../../../domain/trust/fingerprint';
import { buildGameHead } from '../../../domain/trust/gameHead';
import { buildKeyRotation, type KeyRotation } from '../../../domain/trust/keyRotation';
import { publishedKey } from '../../../domain/trust/publishedKey';
import type { ExportBundle } from '../../../domain/verify/exportBundle';

export interface TestKey {
  jwk: Ed25519PublicJwk;
  fingerprint: string;
  sign: (hashHex: string) => string;
}

export function newKey(kid = `k-${Math.random().toString(36).slice(2, 10)}`): TestKey {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk: Ed25519PublicJwk = { kty: 'OKP', crv: 'Ed25519', x: publicKey.export({ format: 'jwk' }).x!, kid };
  return { jwk, fingerprint: fingerprintOf(jwk), sign: (hashHex) => sign(null, Buffer.from(hashHex, 'hex'), privateKey).toString('base64') };
}

export interface Move {
  actor: string;
  type: string;
  payload: unknown;
}

export const AT = '2026-11-22T10:00:00.000Z';
const SEED = Buffer.alloc(32, 7);

/** A dice game: entropy from both sides, `rolls` rolls of 2d6+1d20, then sealed unless told otherwise. */
export function diceMoves(rolls: number, sealed = true): Move[] {
  const moves: Move[] = [
    { actor: 'player1', type: 'ContributeEntropy', payload: { entropy: 'alpha' } },
    { actor: 'player2', type: 'ContributeEntropy', payload: { entropy: 'bravo ✓ 😀' } },
  ];
  for (let i = 0; i < rolls; i++) moves.push({ actor: i % 2 ? 'player2' : 'player1', type: 'Roll', payload: { dice: '2d6+1d20', purpose: `fire ${i}` } });
  if (sealed) moves.push({ actor: 'organizer', type: 'Seal', payload: {} });
  return moves;
}

/**
 * Plays the moves as the service would (fairness-v1 §3 to §6) and signs commit `seq`
 * with `keyFor(seq)`.
 */
export function playGame(options: { gameId?: string; ruleset?: string; tournamentId?: string; moves: Move[]; keyFor: (seq: number) => TestKey }): { commits: Commit[]; serverSeed: string; commitment: string; gameId: string; ruleset: string } {
  const gameId = options.gameId ?? 'g-test';
  const rulesetId = options.ruleset ?? 'dice';
  const ruleset = findRuleset(rulesetId)!;
  const commitment = commitmentOf(SEED);
  const commits: Commit[] = [];
  const append = (draft: Omit<Parameters<typeof buildCommit>[0], 'gameId' | 'seq' | 'prevHash' | 'kid' | 'recordedAt' | 'viaOrganizer'>) => {
    const seq = commits.length + 1;
    const key = options.keyFor(seq);
    const commit = buildCommit({ ...draft, gameId, seq, prevHash: commits.at(-1)?.hash ?? '0'.repeat(64), kid: key.jwk.kid, recordedAt: AT, viaOrganizer: false }, key.sign);
    commits.push(commit);
    return commit;
  };
  const body = { ruleset: rulesetId };
  let state: GameState = evolveGame(undefined, append({ commandId: 'create', actor: 'organizer', command: { type: 'CreateGame', payload: body }, events: [decideCreate(ruleset, body, commitment, options.tournamentId)], dice: [] }));
  options.moves.forEach((move, i) => {
    const check = checkPayload(state.ruleset, move.type, move.payload);
    if (!check.ok) throw new Error(`bad move ${move.type}`);
    const dice = new FairnessDice(gameKeyOf(SEED, gameId, state.entropy), commits.length + 1);
    const events = decideGame(state, { type: move.type, payload: check.payload }, { actor: move.actor, dice, now: AT, serverSeed: SEED.toString('hex') });
    state = evolveGame(state, append({ commandId: `m${i}`, actor: move.actor, command: { type: move.type, payload: move.payload }, events, dice: dice.drawn }));
  });
  return { commits, serverSeed: SEED.toString('hex'), commitment, gameId, ruleset: rulesetId };
}

/** The export of trust.md: keys with fingerprints, the key log, and a head signed by `headKey`. */
export function exportOf(game: ReturnType<typeof playGame>, options: { keys: TestKey[]; keyLog?: KeyRotation[]; headKey?: TestKey; head?: boolean }): ExportBundle {
  const sealed = game.commits.some((c) => c.events.some((e) => e.type === 'GameSealed'));
  const last = game.commits.at(-1)!;
  const headKey = options.headKey ?? options.keys.at(-1)!;
  return {
    gameId: game.gameId,
    ruleset: game.ruleset,
    commitment: game.commitment,
    commits: game.commits,
    keys: { keys: options.keys.map((k, i) => publishedKey(k.jwk, i === options.keys.length - 1 ? 'current' : 'retired')) },
    keyLog: options.keyLog ?? [],
    ...(options.head === false ? {} : { head: buildGameHead({ gameId: game.gameId, seq: last.seq, lastHash: last.hash, sealed, at: AT, kid: headKey.jwk.kid }, headKey.sign) }),
    ...(sealed ? { serverSeed: game.serverSeed } : {}),
  };
}

/** A sealed dice game signed by one key, exported with its head. */
export function honestExport(key: TestKey, rolls = 5): ExportBundle {
  return exportOf(playGame({ moves: diceMoves(rolls), keyFor: () => key }), { keys: [key] });
}

/** Key A signs up to `switchAt` (exclusive), then B; the log records A handing over to B. */
export function rotatedExport(a: TestKey, b: TestKey, switchAt: number, options: { keyLog?: boolean } = {}): ExportBundle {
  const game = playGame({ moves: diceMoves(8), keyFor: (seq) => (seq < switchAt ? a : b) });
  const rotation = buildKeyRotation({ n: 1, previous: a.fingerprint, next: b.jwk, at: AT }, a.sign);
  return exportOf(game, { keys: [a, b], keyLog: options.keyLog === false ? [] : [rotation] });
}

/** What a forger without the server's key can do: re-sign every commit and the head with their own key. */
export function forged(bundle: ExportBundle, forger: TestKey): ExportBundle {
  let prevHash = '0'.repeat(64);
  const commits = bundle.commits.map((c) => {
    const { hash: _h, signature: _s, as, ...rest } = c;
    const commit = buildCommit({ ...rest, prevHash, kid: forger.jwk.kid, viaOrganizer: as === 'organizer' }, forger.sign);
    prevHash = commit.hash;
    return commit;
  });
  const last = commits.at(-1)!;
  const sealed = bundle.head?.sealed ?? false;
  return {
    ...bundle,
    commits,
    keys: { keys: [publishedKey(forger.jwk, 'current')] },
    keyLog: [],
    head: buildGameHead({ gameId: bundle.gameId, seq: last.seq, lastHash: last.hash, sealed, at: AT, kid: forger.jwk.kid }, forger.sign),
  };
}

export const copyOf = <T>(value: T): T => JSON.parse(JSON.stringify(value));
