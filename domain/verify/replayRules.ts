import { beaconChainSchema } from '../beacon/chain';
import { jsonEqual } from '../canonicalJson';
import { GivenDice, type Die } from '../dice';
import { DomainError, InsufficientDice, InvalidDieValue } from '../errors';
import type { Commit } from '../fairness/hashChain';
import { decideAcceptance, decideReveal, RevealMismatch } from '../game/beaconRolls';
import { authorize, checkPayload, decideCreate, decideGame } from '../game/decideGame';
import { CreateGameBody, RevealBeacon, revealCommandId, SERVER_ACTOR } from '../game/gameCommands';
import { evolveGame, type GameState } from '../game/gameState';
import { ORGANIZER } from '../ruleset';
import { findRuleset } from '../rulesets/registry';
import { noProgress, type CheckProgress } from './checkProgress';
import type { Fail } from './exportBundle';
import { messageOf } from './shown';

/**
 * fairness-v1 §7.3: the rules were applied correctly. Replays every command with its
 * recorded dice and stops at the first divergence, labelled by the commit's position
 * (its own `seq` field is only a claim). Gives how many commits replayed as recorded, and
 * the game they fold to.
 */
export function replayRules(commitment: string, commits: readonly Commit[], fail: Fail, progress: CheckProgress = noProgress): { replayed: number; game?: GameState } {
  let state: GameState | undefined;
  const replayed = replayEach(commitment, commits, fail, progress, (next) => (state = next));
  return { replayed, game: state };
}

function replayEach(commitment: string, commits: readonly Commit[], fail: Fail, progress: CheckProgress, folded: (state: GameState) => void): number {
  let state: GameState | undefined;
  for (const [index, commit] of commits.entries()) {
    const seq = index + 1;
    const reason = replayOne(state, commit, commitment);
    if (reason) {
      fail(seq, 'rules', reason);
      return index;
    }
    try {
      state = evolveGame(state, commit);
      folded(state);
    } catch (error) {
      fail(seq, 'rules', messageOf(error));
      return index;
    }
    progress('rules', seq, commits.length);
  }
  return commits.length;
}

function replayOne(state: GameState | undefined, commit: Commit, commitment: string): string | undefined {
  try {
    if (!state) {
      const body = CreateGameBody.safeParse(commit.command?.payload);
      const ruleset = body.success ? findRuleset(body.data.ruleset) : undefined;
      if (!body.success || !ruleset) return 'the creation command is not a valid game';
      if (commit.actor !== ORGANIZER) return 'a game is created by the organizer';
      if (commit.dice.length) return 'the creation rolls no dice';
      // The tournament and the beacon chain are the server's word, signed with the commit;
      // tournamentExport.ts checks the first against the tournament head, checkBeacons.ts the second against the known chains.
      const data = commit.events[0]?.data;
      const recorded = data?.tournamentId;
      const beacon = data?.beacon === undefined ? undefined : beaconChainSchema.safeParse(data.beacon).data;
      if (data?.beacon !== undefined && !beacon) return 'GameCreated records a beacon chain that cannot be read';
      if (body.data.randomness?.beacon !== beacon?.chain) {
        return `the creation asks for ${body.data.randomness ? `the drand chain ${JSON.stringify(body.data.randomness.beacon)}` : 'no beacon'}, but GameCreated records ${beacon ? `the chain ${JSON.stringify(beacon.chain)}` : 'none'}`;
      }
      return sameEvents([decideCreate(ruleset, body.data, commitment, typeof recorded === 'string' ? recorded : undefined, beacon)], commit.events);
    }
    if (state.beacon && commit.command.type === 'RevealBeacon') return replayReveal(state, commit);
    if (state.pending) return `commit ${state.pending.seq} waits for drand round ${state.pending.round}: the next commit must be its reveal`;
    const check = checkPayload(state.ruleset, commit.command.type, commit.command.payload);
    if (!check.ok) return `the command ${commit.command.type} is not valid here`;
    authorize(state, commit.command.type, commit.actor, commit.as === ORGANIZER);
    const sealing = commit.events.find((e) => e.type === 'GameSealed');
    const serverSeed = sealing?.data.serverSeed;
    const command = { type: commit.command.type, payload: check.payload };
    const context = { actor: commit.actor, now: commit.recordedAt, serverSeed: typeof serverSeed === 'string' ? serverSeed : undefined };
    if (state.beacon) {
      // beacon.md §2.1: decided with probe dice; a command that reaches a die is pending, with the round its recordedAt gives.
      if (commit.dice.length) return "in a beacon game only the server's reveal of a pending roll draws dice";
      return sameEvents(decideAcceptance(state, command, context, commit.recordedAt), commit.events);
    }
    const dice = new GivenDice(commit.dice.map((d) => d.value));
    const events = decideGame(state, command, { ...context, dice });
    if (!sameDice(dice.drawn, commit.dice)) return 'the recorded dice are not the dice the rules draw';
    return sameEvents(events, commit.events);
  } catch (error) {
    if (error instanceof DomainError) return `the rules refuse this command: ${error.message}`;
    return `the command cannot be replayed: ${messageOf(error)}`;
  }
}

/** beacon.md §2.3: the server's reveal, replayed: the pending command decided again with the recorded dice, every one of them used. */
function replayReveal(state: GameState, commit: Commit): string | undefined {
  const payload = RevealBeacon.safeParse(commit.command.payload);
  if (!payload.success) return 'the reveal does not name its pending commit, round and signature';
  if (commit.actor !== SERVER_ACTOR || commit.as !== undefined || commit.commandId !== revealCommandId(payload.data.pending)) {
    return `a reveal is sent by the server alone, with commandId ${JSON.stringify(revealCommandId(payload.data.pending))}`;
  }
  const dice = new GivenDice(commit.dice.map((d) => d.value));
  try {
    const events = decideReveal(state, payload.data, dice);
    if (!sameDice(dice.drawn, commit.dice)) return 'the recorded dice are not the dice the rules draw';
    return sameEvents(events, commit.events);
  } catch (error) {
    if (error instanceof RevealMismatch) return error.message;
    if (error instanceof InsufficientDice) return 'the reveal records fewer dice than the rules draw: a roll cut short is no refusal';
    if (error instanceof InvalidDieValue) return `the reveal records a die that cannot show its face: ${error.message}`;
    throw error;
  }
}

function sameDice(drawn: readonly Die[], recorded: readonly Die[]): boolean {
  return drawn.length === recorded.length && drawn.every((d, i) => d.sides === recorded[i].sides && d.value === recorded[i].value);
}

function sameEvents(replayed: unknown, recorded: unknown): string | undefined {
  return jsonEqual(replayed, recorded) ? undefined : 'the recorded events differ from what the rules produce';
}
