import type { CommandDriver, RulesetDriver } from './hostileDrivers';

const ORGANIZER = 'organizer';

/**
 * A ruleset's driver with the commands every game has, whatever its ruleset: entropy before the
 * first die, the seal (sent last, by the test), and the organizer's rulings and voids
 * (docs/voids-and-rulings.md). A Void is armed with the ruleset's own next move and names it:
 * the last commit the rules decided, which every ruleset lets the organizer void.
 */
export function withGameCommands(driver: RulesetDriver): RulesetDriver {
  const game: Record<string, CommandDriver> = {
    ContributeEntropy: { shapes: (_v, fresh) => [{ actor: ORGANIZER, payload: { entropy: `table ${fresh()}` } }] },
    Seal: { shapes: () => [{ actor: ORGANIZER, payload: {} }] },
    Ruling: { shapes: (_v, fresh) => [{ actor: ORGANIZER, payload: { text: `ruling ${fresh()}`, concerning: [1] } }] },
    Void: { arm: (view) => driver.proceed(view), shapes: (view, fresh) => [{ actor: ORGANIZER, payload: { seq: view.version, reason: `void ${fresh()}` } }] },
  };
  return { ...driver, commands: { ...game, ...driver.commands } };
}
