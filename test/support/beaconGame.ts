import { QUICKNET, roundTimeMs, type BeaconChain } from '../../domain/beacon/chain';
import { beaconDice } from '../../domain/beacon/randomness';
import { bytesOfHex } from '../../domain/crypto/encoding';
import { GivenDice } from '../../domain/dice';
import { commitmentOf, gameKeyOf, type EntropyEntry } from '../../domain/fairness/gameKey';
import type { Commit } from '../../domain/fairness/hashChain';
import { decideAcceptance, decideReveal } from '../../domain/game/beaconRolls';
import { buildCommit } from '../../domain/game/buildCommit';
import { decideCreate, decideGame } from '../../domain/game/decideGame';
import { revealCommandId, SERVER_ACTOR, type CreateGameBody } from '../../domain/game/gameCommands';
import { evolveGame, type GameState } from '../../domain/game/gameState';
import { findRuleset } from '../../domain/rulesets/registry';
import type { Command } from '../../domain/ruleset';
import { buildGameHead } from '../../domain/trust/gameHead';
import type { ExportBundle } from '../../domain/verify/exportBundle';
import { fingerprintOf } from '../../domain/trust/fingerprint';
import { generateSigningKey, publicJwkOf, signWith, type StoredSigningKey } from '../../functions/application/signer';
import { QUICKNET_BEACONS } from '../domain/beacon/vector';

/** A command of the game to build, and who sends it. */
export interface ScriptedCommand {
  actor: string;
  type: string;
  payload: unknown;
  /** Sent by the organizer for the side `actor`. */
  viaOrganizer?: boolean;
}

export interface BeaconGameOptions {
  ruleset?: string;
  options?: Record<string, unknown>;
  /** Played in order; every command that rolls waits for the next of `beacons`. */
  commands?: ScriptedCommand[];
  /** The signed rounds, oldest first: the real quicknet beacons of beacon.md by default. */
  beacons?: { round: number; signature: string }[];
  chain?: BeaconChain;
  serverSeed?: string;
  gameId?: string;
  key?: StoredSigningKey;
  sealed?: boolean;
}

const DEFAULT_COMMANDS: ScriptedCommand[] = [
  { actor: 'player1', type: 'ContributeEntropy', payload: { entropy: 'first, before any roll' } },
  { actor: 'player1', type: 'Roll', payload: { dice: '3d6', purpose: 'assault on Carentan' } },
  { actor: 'player2', type: 'Roll', payload: { dice: '1d20', purpose: 'artillery' } },
  { actor: 'player1', type: 'Roll', payload: { dice: '2d6+1d10', purpose: 'counterattack' } },
  { actor: 'player2', type: 'Roll', payload: { dice: '1d6', purpose: 'morale' } },
];

/**
 * A beacon game built offline with the domain alone, the way the server builds it
 * (beacon.md §2): each rolling command is a pending commit recorded one period before
 * its round, then the server's reveal with that round's beacon; sealed by default. With
 * the real quicknet rounds of the spec it verifies with no network and no test chain.
 */
export function buildBeaconGame(given: BeaconGameOptions = {}): { bundle: ExportBundle; fingerprint: string; key: StoredSigningKey; chain: BeaconChain } {
  const chain = given.chain ?? QUICKNET;
  const ruleset = findRuleset(given.ruleset ?? 'dice');
  if (!ruleset) throw new Error(`unknown ruleset ${given.ruleset}`);
  const key = given.key ?? generateSigningKey();
  const sign = signWith(key);
  const kid = publicJwkOf(key).kid;
  const gameId = given.gameId ?? 'g-beacon';
  const serverSeed = given.serverSeed ?? '000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f';
  const seed = bytesOfHex(serverSeed)!;
  const beacons = [...(given.beacons ?? QUICKNET_BEACONS)].sort((a, b) => a.round - b.round);
  const commits: Commit[] = [];
  let state: GameState | undefined;
  let clock = roundTimeMs(chain, beacons[0].round) - 60_000;
  const append = (draft: { commandId: string; actor: string; viaOrganizer?: boolean; command: Command; events: Commit['events']; dice: Commit['dice']; recordedAt: string }) => {
    const commit = buildCommit(
      { gameId, seq: commits.length + 1, prevHash: commits.at(-1)?.hash ?? '0'.repeat(64), viaOrganizer: draft.viaOrganizer ?? false, kid, ...draft },
      sign,
    );
    commits.push(commit);
    state = evolveGame(state, commit);
    return commit;
  };
  const at = (ms: number) => new Date(ms).toISOString();
  const body: CreateGameBody = { ruleset: ruleset.id, options: given.options ?? {}, randomness: { beacon: chain.chain } };
  const created = decideCreate(ruleset, body, commitmentOf(seed), undefined, chain);
  append({ commandId: 'create', actor: 'organizer', command: { type: 'CreateGame', payload: body }, events: [created], dice: [], recordedAt: at(clock) });
  let next = 0;
  for (const [i, scripted] of (given.commands ?? DEFAULT_COMMANDS).entries()) {
    const command = { type: scripted.type, payload: scripted.payload } as Command;
    const beacon = beacons[next];
    // Recorded exactly one period before the next beacon's round, so that it is the round it waits for.
    const soon = at(clock + 1000);
    const rolls = decideAcceptance(state!, command, { actor: scripted.actor, now: soon }, soon)[0]?.type === 'BeaconRollPending';
    const recordedAt = rolls && beacon ? at(Math.max(clock + 1000, roundTimeMs(chain, beacon.round) - chain.period * 1000)) : soon;
    const events = decideAcceptance(state!, command, { actor: scripted.actor, now: recordedAt }, recordedAt);
    clock = Date.parse(recordedAt);
    const pending = append({ commandId: `c${i}`, actor: scripted.actor, viaOrganizer: scripted.viaOrganizer, command, events, dice: [], recordedAt });
    if (events[0]?.type !== 'BeaconRollPending') continue;
    if (!beacon || beacon.round !== events[0].data.round) throw new Error(`command ${i} waits for round ${String(events[0].data.round)}, and no beacon of that round was given`);
    next += 1;
    const entropy: EntropyEntry[] = state!.entropy;
    const dice = beaconDice(gameKeyOf(seed, gameId, entropy), chain, beacon.round, beacon.signature, pending.seq);
    const payload = { pending: pending.seq, round: beacon.round, signature: beacon.signature };
    const revealEvents = decideReveal(state!, payload, dice);
    clock = roundTimeMs(chain, beacon.round) + 1500;
    append({ commandId: revealCommandId(pending.seq), actor: SERVER_ACTOR, command: { type: 'RevealBeacon', payload }, events: revealEvents, dice: dice.drawn.map((d) => ({ ...d })), recordedAt: at(clock) });
  }
  if (given.sealed !== false) {
    clock += 1000;
    const events = decideGame(state!, { type: 'Seal', payload: {} }, { actor: 'organizer', dice: new GivenDice([]), now: at(clock), serverSeed });
    append({ commandId: 'seal', actor: 'organizer', command: { type: 'Seal', payload: {} }, events, dice: [], recordedAt: at(clock) });
  }
  const last = commits.at(-1)!;
  const head = buildGameHead({ gameId, seq: last.seq, lastHash: last.hash, sealed: given.sealed !== false, at: last.recordedAt, kid }, sign);
  const bundle: ExportBundle = {
    gameId,
    ruleset: ruleset.id,
    commitment: commitmentOf(seed),
    commits,
    keys: { keys: [publicJwkOf(key)] },
    head,
    ...(given.sealed !== false ? { serverSeed } : {}),
  };
  return { bundle: JSON.parse(JSON.stringify(bundle)) as ExportBundle, fingerprint: fingerprintOf({ x: key.jwk.x! }), key, chain };
}
