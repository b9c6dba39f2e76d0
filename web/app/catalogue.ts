// GET /rulesets, as the pages use it.
import { api } from './api';
import type { JsonSchema } from './schemaForm';

export interface CommandInfo {
  type: string;
  description: string;
  who: { sides: 'all' | 'none' | string[]; organizer: boolean; text?: string };
  payload: JsonSchema;
}

export interface RulesetInfo {
  id: string;
  title: string;
  description: string;
  sides: string[];
  sidesNote?: string;
  options: JsonSchema;
  commands: CommandInfo[];
}

let catalogue: Promise<RulesetInfo[]> | undefined;

export function rulesets(): Promise<RulesetInfo[]> {
  catalogue ??= api<{ rulesets: RulesetInfo[] }>('GET', '/rulesets').then((c) => c.rulesets).catch((error) => {
    catalogue = undefined;
    throw error;
  });
  return catalogue;
}

/** Whether this role may ever send the command (organizer, or a side of the game). */
export function maySend(command: CommandInfo, role: string, sides: readonly string[]): boolean {
  if (role === 'organizer') return command.who.organizer;
  const { sides: who } = command.who;
  if (who === 'all') return true;
  if (who === 'none') return false;
  return who.includes(role);
}
