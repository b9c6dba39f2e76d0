import * as z from 'zod';
import { playerText } from '../playerText';
import type { CommandSpec } from '../ruleset';

/** Commands every game accepts, whatever its ruleset (fairness-v1 §2, §6). */
export const ContributeEntropy = z.strictObject({
  entropy: z.string().min(1).max(128).describe('any text; it is mixed into the game key'),
});

export const Seal = z.strictObject({});

export const gameCommands: Record<string, CommandSpec> = {
  ContributeEntropy: {
    schema: ContributeEntropy,
    who: { sides: 'all', organizer: true },
    description: 'Add entropy to the game key; only before the first die is rolled.',
  },
  Seal: {
    schema: Seal,
    who: { sides: 'none', organizer: true },
    description: 'End the game and reveal its server seed; nothing can follow.',
  },
};

export const CreateGameBody = z.strictObject({
  ruleset: z.string().min(1).max(64),
  title: playerText(200).optional().describe('shown to players; one line of printable text'),
  options: z.record(z.string(), z.unknown()).optional(),
  public: z.boolean().optional().describe('anyone may read the game without a token'),
});
export type CreateGameBody = z.infer<typeof CreateGameBody>;
