import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { FairnessDice, GivenDice, type DiceSource } from '../../domain/dice';
import { InsufficientDice } from '../../domain/errors';
import { allRulesets, findRuleset } from '../../domain/rulesets/registry';
import { invalidRequest, notFound } from './errors';
import { fieldIssues, IN_WORDS, shown } from './zodIssues';

const MAX_EVALUATE_DICE = 10_000;

export const EvaluateRequest = z.strictObject({
  procedure: z.string().min(1).max(64),
  input: z.unknown().optional(),
  options: z.record(z.string(), z.unknown()).optional(),
  dice: z.array(z.int()).max(MAX_EVALUATE_DICE).optional(),
});

/** POST /rulesets/{id}/evaluate: the same resolution code as the games, nothing stored. */
export function evaluateProcedure(rulesetId: string, body: unknown) {
  const ruleset = findRuleset(rulesetId);
  if (!ruleset) {
    const ids = allRulesets().map((r) => r.id);
    throw notFound(`No ruleset ${shown(rulesetId)}: the rulesets are ${ids.join(', ')}.`, ids);
  }
  const request = EvaluateRequest.safeParse(body, IN_WORDS);
  if (!request.success) throw invalidRequest(fieldIssues(request.error));
  const procedure = Object.hasOwn(ruleset.procedures, request.data.procedure) ? ruleset.procedures[request.data.procedure] : undefined;
  if (!procedure) {
    const names = Object.keys(ruleset.procedures);
    throw invalidRequest([{ field: 'procedure', message: `must be a procedure of the ${ruleset.id} ruleset, not ${shown(request.data.procedure)}: its procedures are ${names.join(', ')}`, valid: names }]);
  }
  const input = procedure.input.safeParse(request.data.input ?? {}, IN_WORDS);
  if (!input.success) throw invalidRequest(fieldIssues(input.error, 'input'));
  // A new game's options where the request gives none (gameCreation.ts does the same): the calculators play what a game created now plays.
  const options = ruleset.options.safeParse({ ...ruleset.newGameOptions, ...request.data.options }, IN_WORDS);
  if (!options.success) throw invalidRequest(fieldIssues(options.error, 'options'));
  const given = request.data.dice;
  const run = (dice: DiceSource) => ({ ...procedure.evaluate(input.data, options.data, dice), dice: dice.drawn });
  if (!given) return run(new FairnessDice(randomBytes(32), 1));
  try {
    return run(new GivenDice(given));
  } catch (error) {
    if (!(error instanceof InsufficientDice)) throw error;
    // Count what the procedure draws when the missing dice are taken as 1s.
    const padded = new GivenDice([...given, ...Array<number>(MAX_EVALUATE_DICE).fill(1)]);
    procedure.evaluate(input.data, options.data, padded);
    throw new InsufficientDice(padded.drawn.length);
  }
}
