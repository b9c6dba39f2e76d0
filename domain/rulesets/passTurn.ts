import * as z from 'zod';
import { RuleViolation } from '../errors';
import { playerText } from '../playerText';
import { ORGANIZER, type CommandSpec } from '../ruleset';

/**
 * The explicit hand-over of the rulesets with no turn order of their own (dice, table): the
 * side to move says whose move it is next. The first side is to move from creation.
 */
export const PassTurn = z.strictObject({
  to: playerText(64).describe('the side whose move it is next'),
});
export type PassTurn = z.infer<typeof PassTurn>;

export const passTurnCommand = {
  schema: PassTurn,
  who: { sides: 'all', organizer: true },
  description: "Hand the move to another side: the turn clock charges that side's time from now (docs/clocks.md).",
} as const satisfies CommandSpec;

export const turnPassedEvent = z.strictObject({ to: z.string().describe('the side whose move it is now') });

const RULE = 'turns: PassTurn names another side of the game';

/** Whose move it is in a game of these sides, when the game records hand-overs. */
export interface TurnHolder {
  sides: readonly string[];
  toMove: string;
}

export const firstToMove = (sides: readonly string[]): TurnHolder => ({ sides: [...sides], toMove: sides[0] });

export function decidePassTurn(turn: TurnHolder, { to }: PassTurn, actor: string): { type: 'TurnPassed'; data: { to: string } } {
  // The clock charges whoever PassTurn names: only the side to move (or the organizer, for it) hands the move over.
  if (actor !== ORGANIZER && actor !== turn.toMove) {
    throw new RuleViolation(`It is ${turn.toMove}'s move: only ${turn.toMove} or the organizer may pass the turn.`, 'turns: the side to move passes the turn');
  }
  if (!turn.sides.includes(to)) throw new RuleViolation(`This game has no side ${JSON.stringify(to)}: its sides are ${turn.sides.join(', ')}.`, RULE);
  if (to === turn.toMove) throw new RuleViolation(`It is already ${to}'s move.`, RULE);
  return { type: 'TurnPassed', data: { to } };
}

export const passTurnSummary = (to: string) => `turn to ${to}`;
