/**
 * The rule each refusal names (RuleViolation.rule): the manual's section, in a few words.
 * Rulings (docs/rulesets/wars-and-battles.md) say "(ruling)".
 */
export const RULE = {
  sequence: 'wars-and-battles §5.1: players act in their own impulse, in turn order',
  endTurn: 'wars-and-battles §5.1: the turn ends once both players have played every impulse',
  activation: 'wars-and-battles §5.2: one activation point per unit acted on, from the side\'s points of the impulse',
  impulse2: 'wars-and-battles §5.2: a unit activated in impulse 1 is unavailable in impulse 2',
  units: 'wars-and-battles §3.2: the units of the game',
  oneAttack: 'wars-and-battles §7.2: a unit makes only one attack per turn',
  oneHex: 'wars-and-battles §7.2: a hex can be attacked only once per turn',
  supports: 'wars-and-battles §7.2: at most 3 support units in each fight',
  defenderSupport: 'wars-and-battles §7.4.4: defenders cannot benefit from any support',
  supportKind: 'wars-and-battles §7.4.4: support comes from artillery (land or naval) or aircraft',
  outOfSupply: 'wars-and-battles §8.5.2: an out-of-supply unit cannot attack',
  landCombat: 'wars-and-battles §7.2: land combat is between adjoining ground units of the two sides',
  openAttack: 'wars-and-battles §7.3.1: a fight runs its steps to the end before the next one (ruling)',
  attackIds: 'wars-and-battles: an attack id names one attack of the game',
  strengths: 'wars-and-battles §7.3.2: the ratio compares attack and defence values (ruling: both must be above 0)',
  terrain: 'wars-and-battles §7.4.3: the terrain effects the game was created with',
  bombard: 'wars-and-battles §7.5.1: artillery, ships and heavy bombers bombard; the Axis only with artillery',
  sight: 'wars-and-battles §6.1: a unit sees enemies within its view distance',
  antiAircraft: 'wars-and-battles §7.5.2: only heavy bombers lose LP to anti-aircraft fire when bombarding',
  replenishAxis: 'wars-and-battles §8.3.3: Axis replenishment points of the turn',
  replenishAfterAttack: 'wars-and-battles §8.3.3: a unit cannot be replenished after attacking',
  replenishable: 'wars-and-battles §10.1.1: only units with replenishment capacity are replenished',
  notInSource: 'wars-and-battles: a bundled example table holds only what the manual\'s worked examples show',
  strategicMove: 'wars-and-battles §6.3: following a strategic move, a unit cannot attack',
  stacking: 'wars-and-battles §8.1: a hex holds at most 3 units; commanders and German units smaller than a battalion stack freely',
} as const;
