import { notACommand } from '../../defineRuleset';
import type { DecideContext } from '../../ruleset';
import { resolveAAFires } from './aaFire';
import type { EuropaEvent, EuropaEventData } from './events';
import { decideFortification } from './fortifications';
import type { EuropaCommand } from './commands';
import type { EuropaState } from './state';

export function decideEuropa(state: EuropaState, command: EuropaCommand, ctx: DecideContext): EuropaEvent[] {
  switch (command.type) {
    case 'AAFire': {
      const p = command.payload;
      const outcomes = resolveAAFires(p, state.aaTable, state.otherEuropaGames, ctx.dice, state.rulesVersion);
      // The options admit only threshold AA tables rolled on 2d6 (aaTable.ts): the resolution is the one AAFired describes.
      return outcomes.map((outcome) => ({ type: 'AAFired', data: { fireId: p.fireId, hex: p.hex, ...outcome } as EuropaEventData<'AAFired'> }));
    }
    case 'FortificationEvent':
      return decideFortification(state, command.payload, ctx.actor);
    default:
      return notACommand(command, 'europa', 'europa: commands');
  }
}
