import { jsonEqual } from '../canonicalJson';
import { GivenDice, type Die } from '../dice';
import { DomainError } from '../errors';
import type { Commit } from '../fairness/hashChain';
import { authorize, checkPayload, decideCreate, decideGame } from '../game/decideGame';
import { CreateGameBody } from '../game/gameCommands';
import { evolveGame, type GameState } from '../game/gameState';
import { ORGANIZER } from '../ruleset';
import { findRuleset } from '../rulesets/registry';
import { noProgress, type CheckProgress } from './checkProgress';
import type { Fail } from './exportBundle';
import { messageOf } from './shown';

/**
 * fairness-v1 §7.3: the rules were applied correctly. Replays every command with its
 * recorded dice and stops at the first divergence, labelled by the commit's position
 * (its own `seq` field is only a claim). Gives how many commits replayed as recorded.
 */
export function replayRules(commitment: string, commits: readonly Commit[], fail: Fail, progress: CheckProgress = noProgress): number {
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
      // The tournament is the server's word, signed with the commit; tournamentExport.ts checks it against the tournament head.
      const recorded = commit.events[0]?.data?.tournamentId;
      return sameEvents([decideCreate(ruleset, body.data, commitment, typeof recorded === 'string' ? recorded : undefined)], commit.events);
    }
    const check = checkPayload(state.ruleset, commit.command.type, commit.command.payload);
    if (!check.ok) return `the command ${commit.command.type} is not valid here`;
    authorize(state, commit.command.type, commit.actor, commit.as === ORGANIZER);
    const dice = new GivenDice(commit.dice.map((d) => d.value));
    const sealing = commit.events.find((e) => e.type === 'GameSealed');
    const serverSeed = sealing?.data.serverSeed;
    const events = decideGame(state, { type: commit.command.type, payload: check.payload }, {
      actor: commit.actor,
      dice,
      now: commit.recordedAt,
      serverSeed: typeof serverSeed === 'string' ? serverSeed : undefined,
    });
    if (!sameDice(dice.drawn, commit.dice)) return 'the recorded dice are not the dice the rules draw';
    return sameEvents(events, commit.events);
  } catch (error) {
    if (error instanceof DomainError) return `the rules refuse this command: ${error.message}`;
    return `the command cannot be replayed: ${messageOf(error)}`;
  }
}

function sameDice(drawn: readonly Die[], recorded: readonly Die[]): boolean {
  return drawn.length === recorded.length && drawn.every((d, i) => d.sides === recorded[i].sides && d.value === recorded[i].value);
}

function sameEvents(replayed: unknown, recorded: unknown): string | undefined {
  return jsonEqual(replayed, recorded) ? undefined : 'the recorded events differ from what the rules produce';
}
