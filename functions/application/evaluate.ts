import { randomBytes } from 'node:crypto';
import * as z from 'zod';
import { FairnessDice, GivenDice, type DiceSource } from '../../domain/dice';
import { InsufficientDice } from '../../domain/errors';
import { findRuleset } from '../../domain/rulesets/registry';
import { invalidRequest, notFound } from './errors';
import { fieldIssues } from './zodIssues';

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
  if (!ruleset) throw notFound(`No ruleset "${rulesetId}".`);
  const request = EvaluateRequest.safeParse(body);
  if (!request.success) throw invalidRequest(fieldIssues(request.error));
  const procedure = Object.hasOwn(ruleset.procedures, request.data.procedure) ? ruleset.procedures[request.data.procedure] : undefined;
  if (!procedure) {
    throw invalidRequest([
      { field: 'procedure', message: `"${request.data.procedure}" is not one of ${Object.keys(ruleset.procedures).join(', ')}` },
    ]);
  }
  const input = procedure.input.safeParse(request.data.input ?? {});
  if (!input.success) throw invalidRequest(fieldIssues(input.error, 'input'));
  const options = ruleset.options.safeParse(request.data.options ?? {});
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
