import * as z from 'zod';
import { playerId, playerText } from '../../playerText';
import { RULES_VERSIONS } from './rulesVersion';

const unitType = z.enum(['infantry', 'armor', 'artillery', 'cavalry', 'sniper']);
const terrain = z.enum(['clear', 'forest', 'town', 'hedgerow', 'hill', 'bunker', 'hedgehog', 'sandbags', 'wire']);
const side = z.enum(['allies', 'axis']);

export const Memoir44Options = z.strictObject({
  firstSide: side.default('allies').describe('the side active on the first turn'),
  // No default: commit 1 of a game created before version 2 records no rulesVersion, and must replay as it was recorded.
  rulesVersion: z
    .literal(RULES_VERSIONS)
    .optional()
    .describe('2: the current rules; 1: as first published. A game recorded without it plays 1; /evaluate uses 2 unless told'),
});
export type Memoir44Options = z.infer<typeof Memoir44Options>;

const sniperIsOneFigure = {
  message: 'a sniper is a single figure',
  path: ['figures'],
};
// Figures beyond the unit type's size are a rule refusal (422, rules version 2), not a malformed command.
const unitFields = { type: unitType, figures: z.int().min(1).max(6), special: z.boolean().optional(), terrain: terrain.optional() };
const attacker = <T extends z.ZodType<string | undefined>>(unitId: T) =>
  z.strictObject({ unitId, ...unitFields }).refine((u) => u.type !== 'sniper' || u.figures === 1, sniperIsOneFigure);
const target = <T extends z.ZodType<string | undefined>>(unitId: T) =>
  z.strictObject({ unitId, ...unitFields, uphill: z.boolean().optional().describe('the attacker fights uphill (hills only)') }).refine((u) => u.type !== 'sniper' || u.figures === 1, sniperIsOneFigure);

// Past a unit's reach (7 and more for every unit) is refused by the rules (422, "can't battle at range 7");
// the bound only keeps hostile numbers out (400 naming `range`): no Memoir '44 board is 99 hexes across.
const RANGE_BOUND = 99;
const range = z.int().min(1).max(RANGE_BOUND).describe('hexes to the target, 1 for a close assault; beyond the attacker\'s range is refused by the rules (422)');
const battleFields = { range, starsHit: z.boolean().optional().describe('stars count as hits in this battle') };

export const Battle = z.strictObject({
  attacker: attacker(playerId),
  target: target(playerId),
  ...battleFields,
  adjacentEnemyIds: z.array(playerId).max(6).optional().describe('the enemy units adjacent to the attacker'),
});
export type Battle = z.infer<typeof Battle>;
export const BattleInput = z.strictObject({ attacker: attacker(playerId.optional()), target: target(playerId.optional()), ...battleFields });

export const TakeGround = z.strictObject({ unitId: playerId.describe('the unit whose close assault just emptied its target\'s hex') });
export const CardRoll = z.strictObject({ dice: z.int().min(1).max(10).describe('how many d6'), purpose: playerText(200) });
export const CardRollInput = z.strictObject({ dice: z.int().min(1).max(10) });
export const EndTurn = z.strictObject({});

export const Memoir44View = z.object({
  turn: z.int(),
  activeSide: side,
  battledThisTurn: z.array(z.string()).describe('units of the active side that battled this turn'),
});
