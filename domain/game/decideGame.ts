import type { z } from 'zod';
import type { DiceSource } from '../dice';
import type { BeaconChain } from '../beacon/chain';
import { BeaconPending, EntropyLocked, Forbidden, GameSealed, RuleViolation } from '../errors';
import { mayEverSend, ORGANIZER, type Command, type CommandSpec, type DomainEvent, type Role, type Ruleset } from '../ruleset';
import { gameCommands, SERVICE_COMMANDS, type CreateGameBody } from './gameCommands';
import { isRulesCommit, lastRulesCommit, type GameState } from './gameFold';

export interface GameContext {
  actor: Role;
  dice: DiceSource;
  now: string;
  /** Needed by Seal only: the seed it reveals. */
  serverSeed?: string;
}

export function commandSpec(ruleset: Ruleset, type: string): CommandSpec | undefined {
  if (Object.hasOwn(gameCommands, type)) return gameCommands[type];
  if (Object.hasOwn(ruleset.commands, type)) return ruleset.commands[type];
  return undefined;
}

/** The commands a client may send to POST /games/{id}/commands (the token commands are sent by their own routes). */
export function commandTypes(ruleset: Ruleset): string[] {
  return [...Object.keys(gameCommands).filter((type) => !SERVICE_COMMANDS.has(type)), ...Object.keys(ruleset.commands)];
}

export type PayloadCheck = { ok: true; payload: unknown } | { ok: false; error: z.ZodError } | { ok: false; unknownType: true };

/** Validates a command's payload against its schema (the 400 of http-api.md); `params` may give zod an error map for the words of its issues. */
export function checkPayload(ruleset: Ruleset, type: string, payload: unknown, params?: z.core.ParseContext<z.core.$ZodIssue>): PayloadCheck {
  const spec = commandSpec(ruleset, type);
  if (!spec) return { ok: false, unknownType: true };
  const parsed = spec.schema.safeParse(payload ?? {}, params);
  return parsed.success ? { ok: true, payload: parsed.data } : { ok: false, error: parsed.error };
}

/** 403 when this role may never send this command in this ruleset. */
export function authorize(state: GameState, type: string, actor: Role, viaOrganizer: boolean): void {
  if (viaOrganizer && actor === ORGANIZER) throw new Forbidden('"as" names a side for the organizer to act for.');
  if (actor !== ORGANIZER && !state.sides.includes(actor)) {
    throw new Forbidden(`"${actor}" is not a side of this game (${state.sides.join(', ')}).`);
  }
  const spec = commandSpec(state.ruleset, type);
  if (!spec || !mayEverSend(spec.who, actor, state.sides)) {
    throw new Forbidden(`${actor === ORGANIZER ? 'The organizer' : `The ${actor} side`} may not send ${type}.`);
  }
}

/** decide for a whole game: the game's own commands, then the ruleset's. */
export function decideGame(state: GameState, command: Command, ctx: GameContext): DomainEvent[] {
  if (state.sealed) throw new GameSealed();
  if (state.pending) throw new BeaconPending(state.pending.round, state.pending.roundAt, state.beacon?.period ?? 1);
  switch (command.type) {
    case 'ContributeEntropy': {
      if (state.diceRolled) throw new EntropyLocked();
      const { entropy } = command.payload as { entropy: string };
      return [{ type: 'EntropyContributed', data: { by: ctx.actor, entropy } }];
    }
    case 'Seal':
      if (!ctx.serverSeed) throw new Error('Seal needs the server seed');
      return [{ type: 'GameSealed', data: { serverSeed: ctx.serverSeed } }];
    case 'Void': {
      const { seq, reason } = command.payload as { seq: number; reason: string };
      checkVoid(state, seq);
      return [{ type: 'CommitVoided', data: { seq, reason } }];
    }
    case 'Ruling': {
      const { text, concerning } = command.payload as { text: string; concerning: number[] };
      const unknown = concerning.find((seq) => seq > state.version);
      if (unknown !== undefined) {
        throw new RuleViolation(`There is no commit #${unknown} in this game yet (its last is #${state.version}): a ruling concerns commits already recorded.`, 'ruling: about commits of this game');
      }
      return [{ type: 'RulingRecorded', data: { text, concerning: [...concerning] } }];
    }
    case 'ReissueToken': {
      const { role, tokenId } = command.payload as { role: string; tokenId: string };
      checkTokenRole(state, role);
      return [{ type: 'TokenReissued', data: { role, tokenId } }];
    }
    case 'RevokeToken': {
      const { role } = command.payload as { role: string };
      checkTokenRole(state, role);
      if (role === ORGANIZER) throw new Forbidden("The organizer's token can be reissued but not revoked: someone must be able to seal the game.");
      if (state.credentials.get(role) === null) {
        throw new RuleViolation(`The ${role} side's token is already revoked; reissue it to give the side a new one.`, 'tokens: revoke once');
      }
      return [{ type: 'TokenRevoked', data: { role } }];
    }
    default:
      return state.ruleset.decide(state.rules, command, { actor: ctx.actor, dice: ctx.dice, now: ctx.now });
  }
}

/** docs/voids-and-rulings.md: which commit a Void may take back, in this game's ruleset. */
function checkVoid(state: GameState, seq: number): void {
  if (seq > state.version) {
    throw new RuleViolation(`There is no commit #${seq} in this game yet (its last is #${state.version}).`, 'void: a commit of this game');
  }
  const mark = state.voided.get(seq);
  if (mark) throw new RuleViolation(`#${seq} is already voided (by #${mark.by}).`, 'void: once');
  if (!isRulesCommit(state, seq)) {
    throw new RuleViolation(
      `#${seq} is not a move the rules decided: the creation, entropy, tokens, a turn's hand-over (PassTurn: pass the turn again instead), rulings, voids and a beacon roll's waiting commit (void its reveal) cannot be voided.`,
      'void: only commits the rules decided',
    );
  }
  if ((state.ruleset.voiding ?? 'latest') === 'latest') {
    const last = lastRulesCommit(state);
    if (seq !== last || state.undo?.seq !== seq) {
      const why = state.voided.has(last) ? `, and that one (#${last}) is voided already` : `: #${last} came after #${seq} and was decided on what #${seq} left`;
      throw new RuleViolation(`Only the last commit the rules decided can be voided in a ${state.ruleset.id} game${why}.`, 'void: only the last commit the rules decided');
    }
  }
}

function checkTokenRole(state: GameState, role: string): void {
  if (role !== ORGANIZER && !state.sides.includes(role)) {
    throw new RuleViolation(`This game has no side ${JSON.stringify(role)}; its roles are organizer, ${state.sides.join(', ')}.`, 'tokens: a role of this game');
  }
}

/**
 * Commit 1's event (fairness-v1 §5). A game created with a tournament's token names its
 * tournament (trust.md §7); games of no tournament, and those created before, carry no
 * `tournamentId`. Throws the zod error of bad options.
 */
export function decideCreate(ruleset: Ruleset, body: CreateGameBody, commitment: string, tournamentId?: string, beacon?: BeaconChain): DomainEvent {
  const options = ruleset.options.parse(body.options ?? {}) as Record<string, unknown>;
  return {
    type: 'GameCreated',
    data: {
      ruleset: ruleset.id,
      sides: [...ruleset.sides(options)],
      options,
      commitment,
      ...(tournamentId !== undefined ? { tournamentId } : {}),
      ...(beacon ? { beacon: { ...beacon } } : {}),
    },
  };
}

/** The `<summary>` of a text line (http-api.md "Text for chat logs"). */
export function summarizeCommit(state: GameState | undefined, command: Command, events: readonly DomainEvent[], revealed?: Command): string {
  const first = events[0];
  switch (command.type) {
    case 'CreateGame': {
      const data = first?.data as { ruleset: string; sides: string[]; commitment: string } | undefined;
      return data ? `${data.ruleset}: ${data.sides.join(' vs ')}, commitment ${data.commitment.slice(0, 8)}` : '';
    }
    case 'ContributeEntropy':
      return `entropy ${JSON.stringify((command.payload as { entropy: string }).entropy)}`;
    case 'Seal':
      return `sealed, server seed ${String(first?.data.serverSeed ?? '')}`;
    case 'ReissueToken':
      return `new token for ${String(first?.data.role ?? '')} (${String(first?.data.tokenId ?? '')}); the old one no longer works`;
    case 'RevokeToken':
      return `token of ${String(first?.data.role ?? '')} revoked`;
    case 'RevealBeacon': {
      // The command it resolves is the pending commit's: with it, the line reads as that command's would.
      const { pending, round } = command.payload as { pending: number; round: number };
      const outcome =
        first?.type === 'BeaconRollRefused'
          ? `refused: ${String(first.data.message)}`
          : (revealed && state ? state.ruleset.summarize(revealed, events) : '') || events.map((e) => e.type).join(', ');
      return `drand round ${round} for #${pending}: ${outcome}`;
    }
    default:
      if (first?.type === 'BeaconRollPending') return `waits for drand round ${String(first.data.round)} (${String(first.data.roundAt)})`;
      return state ? state.ruleset.summarize(command, events) : '';
  }
}
