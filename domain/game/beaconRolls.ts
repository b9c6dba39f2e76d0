import { pendingRoundFor, roundAtIso } from '../beacon/chain';
import { ProbeDice, FirstDieDrawn, type DiceSource } from '../dice';
import { DomainError, InsufficientDice, InvalidDieValue } from '../errors';
import type { Command, DomainEvent } from '../ruleset';
import { decideGame, type GameContext } from './decideGame';
import type { GameState } from './gameState';

/**
 * beacon.md §2.1 and §4: a command in a beacon game, decided with probe dice. A refusal
 * before the first die is thrown as always; a command that draws no die gets its events;
 * one that reaches a die becomes the pending commit, waiting for the first round at least
 * one period after `recordedAt`. The server and the verifier both call this.
 */
export function decideAcceptance(state: GameState, command: Command, ctx: Omit<GameContext, 'dice'>, recordedAt: string): DomainEvent[] {
  if (!state.beacon) throw new Error('decideAcceptance is for beacon games');
  try {
    return decideGame(state, command, { ...ctx, dice: new ProbeDice() });
  } catch (error) {
    if (!(error instanceof FirstDieDrawn)) throw error;
    const round = pendingRoundFor(state.beacon, recordedAt);
    return [{ type: 'BeaconRollPending', data: { round, roundAt: roundAtIso(state.beacon, round) } }];
  }
}

/** The words of a reveal whose ruleset failed after a die (beacon.md §4: never expected). */
export const RULES_FAULT = 'The rules could not resolve this roll (a fault of the ruleset, not of the command): it was not applied.';

export interface RevealPayload {
  pending: number;
  round: number;
  signature: string;
}

/** The reveal does not match the game's pending roll: a verifier's failure, the server's bug. */
export class RevealMismatch extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RevealMismatch';
  }
}

/**
 * beacon.md §2.3: the events of a reveal — the pending command decided again on the same
 * rules state, by the same actor at the same time, with the beacon's dice (§3). Should the
 * rules refuse after a die (the property test says no ruleset does), the refusal is
 * recorded and nothing more is drawn (§4).
 */
export function decideReveal(state: GameState, payload: RevealPayload, dice: DiceSource): DomainEvent[] {
  const pending = state.pending;
  if (!pending) throw new RevealMismatch(`no commit is pending, yet a reveal names commit ${payload.pending}`);
  if (pending.seq !== payload.pending || pending.round !== payload.round) {
    throw new RevealMismatch(`the reveal names commit ${payload.pending} and round ${payload.round}; commit ${pending.seq} waits for round ${pending.round}`);
  }
  const waiting: GameState = { ...state, pending: undefined };
  const command = pending.command as Command;
  const actor = pending.actor;
  try {
    return decideGame(waiting, command, { actor, dice, now: pending.recordedAt });
  } catch (error) {
    // Dice that ran out or cannot show a face are the dice source's fault, never the rules':
    // a verifier replaying recorded dice must fail a reveal that records too few, not read
    // it as a refusal (else a server could void any roll it dislikes).
    if (error instanceof InsufficientDice || error instanceof InvalidDieValue) throw error;
    if (error instanceof DomainError) return [{ type: 'BeaconRollRefused', data: { code: error.code, message: error.message } }];
    // A fault of the ruleset after a die: recorded in fixed words (an engine's own message differs between
    // Node and browsers), so that the game goes on and every verifier replays the same events.
    return [{ type: 'BeaconRollRefused', data: { code: 'internal_error', message: RULES_FAULT } }];
  }
}
