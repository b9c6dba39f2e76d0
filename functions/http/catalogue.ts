import * as z from 'zod';
import { commandSpec, commandTypes } from '../../domain/game/decideGame';
import { allRulesets } from '../../domain/rulesets/registry';
import type { Ruleset, Who } from '../../domain/ruleset';

/** A zod schema as JSON Schema: what a client sends (`input`, the default), or what the service records (`output`: defaults applied). */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { unrepresentable: 'any', io }) as Record<string, unknown>;
  return rest;
}

/** "France44", "Memoir44D6", "Dice": the prefix of a ruleset's OpenAPI component names. */
export function componentPrefix(rulesetId: string): string {
  return rulesetId
    .split(/[^A-Za-z0-9]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

function describeWho(who: Who): string {
  const sides = who.sides === 'all' ? 'any side' : who.sides === 'none' ? '' : who.sides.join(' or ');
  if (sides && who.organizer) return `${sides}, or the organizer`;
  return sides || (who.organizer ? 'the organizer only' : 'nobody');
}

export function rulesetEntry(ruleset: Ruleset) {
  const defaultOptions = ruleset.options.parse({});
  return {
    id: ruleset.id,
    title: ruleset.title,
    description: ruleset.description,
    sides: ruleset.sides(defaultOptions),
    ...(ruleset.sidesNote ? { sidesNote: ruleset.sidesNote } : {}),
    options: jsonSchema(ruleset.creationOptions ?? ruleset.options),
    commands: commandTypes(ruleset).map((type) => {
      const spec = commandSpec(ruleset, type)!;
      return {
        type,
        description: spec.description,
        who: { ...spec.who, text: describeWho(spec.who) },
        payload: jsonSchema(spec.schema),
        component: `${componentPrefix(ruleset.id)}${type}`,
      };
    }),
    procedures: Object.entries(ruleset.procedures).map(([name, p]) => ({
      name,
      description: p.description,
      input: jsonSchema(p.input),
    })),
    state: jsonSchema(ruleset.view),
  };
}

/** GET /rulesets. */
export function catalogue() {
  return { rulesets: allRulesets().map(rulesetEntry) };
}
