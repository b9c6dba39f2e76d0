import { allowsString, refusesOtherMembers, type JsonSchema } from './catalogueSchema';
import type { Mutation, Path } from './hostileMutations';
import { PROTOTYPE_NAMES, type Hostile } from './hostileValues';

/** GET /rulesets, as far as the hostile-input run reads it. */
export type Catalogue = {
  id: string;
  options: JsonSchema;
  commands: { type: string; payload: JsonSchema }[];
  procedures: { name: string; input: JsonSchema }[];
}[];

export interface Expected {
  status: number;
  check: string;
}

/**
 * Names a player may well choose (prototype names, accents, emoji, full width, the longest
 * allowed): where the published schema allows them, the service must take them like any other.
 */
const ORDINARY_NAMES = new Set([...PROTOTYPE_NAMES, 'combining accent', 'dotted I', 'family emoji (ZWJ)', 'fullwidth CONSTRUCTOR', '64 x (at the usual limit)']);
export const ORDINARY_CHECK = 'an ordinary name the published schema allows is not taken like any other';
export const HOSTILE_KEY_CHECK = 'a member the published schema does not allow is taken';

/** An ordinary name the schema allows at this place must get `status` (the valid answer), if that applies. */
export function ordinaryName(schema: JsonSchema | undefined, path: Path, hostile: Hostile, how: Mutation['how'], status: number): Expected | undefined {
  if (!schema || how !== 'replace' || !ORDINARY_NAMES.has(hostile.label)) return undefined;
  const value = JSON.parse(hostile.json);
  return typeof value === 'string' && allowsString(schema, path, value) ? { status, check: ORDINARY_CHECK } : undefined;
}

/** A key added where the published schema allows no other member must be refused (400). */
export function strictMembers(schema: JsonSchema | undefined, path: Path, how: Mutation['how']): Expected | undefined {
  return schema && how === 'add-member' && refusesOtherMembers(schema, path) ? { status: 400, check: HOSTILE_KEY_CHECK } : undefined;
}

export const payloadSchema = (catalogue: Catalogue, ruleset: string, type: string) => catalogue.find((r) => r.id === ruleset)?.commands.find((c) => c.type === type)?.payload;
export const inputSchema = (catalogue: Catalogue, ruleset: string, procedure: string) => catalogue.find((r) => r.id === ruleset)?.procedures.find((p) => p.name === procedure)?.input;
export const optionsSchema = (catalogue: Catalogue, ruleset: string) => catalogue.find((r) => r.id === ruleset)?.options;
