import { RuleViolation } from '../../errors';
import type { Command, DecideContext, DomainEvent } from '../../ruleset';
import { resolveAAFire } from './aaFire';
import { decideFortification, type FortificationAction } from './fortifications';
import type { AAFire } from './schemas';
import type { EuropaState } from './state';

export function decideEuropa(state: EuropaState, command: Command, ctx: DecideContext): DomainEvent[] {
  switch (command.type) {
    case 'AAFire': {
      const p = command.payload as AAFire;
      const outcome = resolveAAFire(p, state.aaTable, state.otherEuropaGames, ctx.dice);
      return [{ type: 'AAFired', data: { fireId: p.fireId, hex: p.hex, ...outcome } as unknown as Record<string, unknown> }];
    }
    case 'FortificationEvent':
      return decideFortification(state, command.payload as FortificationAction, ctx.actor);
    default:
      throw new RuleViolation(`${command.type} is not a europa command.`, 'europa: commands');
  }
}
