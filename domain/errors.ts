/**
 * Refusals the domain can give. Each maps to one HTTP answer (http-api.md):
 * the domain names the problem, the handler picks the status.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  details?: Record<string, unknown>;
}

/** A command the rules refuse in the game's current state: 422 rule_violation. */
export class RuleViolation extends DomainError {
  readonly code = 'rule_violation';
  constructor(
    message: string,
    /** Which rule of the ruleset, e.g. "france44 §Declaring combats: at most 3 hexes". */
    readonly rule: string,
  ) {
    super(message);
    this.name = 'RuleViolation';
    this.details = { rule };
  }
}

/** fairness-v1 §2: entropy after the first die: 422 entropy_locked. */
export class EntropyLocked extends DomainError {
  readonly code = 'entropy_locked';
  constructor() {
    super('Entropy can only be added before the first die of the game is rolled.');
    this.name = 'EntropyLocked';
  }
}

/** A role that may never send this command: 403 forbidden. */
export class Forbidden extends DomainError {
  readonly code = 'forbidden';
  constructor(message: string) {
    super(message);
    this.name = 'Forbidden';
  }
}

/** fairness-v1 §6: nothing follows GameSealed: 409 game_sealed. */
export class GameSealed extends DomainError {
  readonly code = 'game_sealed';
  constructor() {
    super('This game is sealed: it accepts no more commands.');
    this.name = 'GameSealed';
  }
}

/** /evaluate was given fewer dice than the procedure draws: 400 insufficient_dice. */
export class InsufficientDice extends DomainError {
  readonly code = 'insufficient_dice';
  constructor(readonly needed: number) {
    super(`This needs at least ${needed} dice.`);
    this.name = 'InsufficientDice';
    this.details = { needed };
  }
}

/** A given die value that the die cannot show: 400 invalid_request. */
export class InvalidDieValue extends DomainError {
  readonly code = 'invalid_request';
  constructor(index: number, value: unknown, sides: number) {
    super(`dice[${index}] is ${JSON.stringify(value)}, but that die is a d${sides} (1 to ${sides}).`);
    this.name = 'InvalidDieValue';
    this.details = { issues: [{ field: `dice[${index}]`, message: `must be an integer from 1 to ${sides}` }] };
  }
}

/** beacon.md §2.2: a command waits for a beacon; nothing else is appended meanwhile: 409 beacon_pending. */
export class BeaconPending extends DomainError {
  readonly code = 'beacon_pending';
  constructor(
    readonly round: number,
    readonly roundAt: string,
    readonly period: number,
  ) {
    super(`A roll waits for drand round ${round} (published at ${roundAt}); the game takes no other command until it is revealed. Try again in a few seconds.`);
    this.name = 'BeaconPending';
    this.details = { round, roundAt };
  }
}
