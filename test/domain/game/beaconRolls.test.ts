import { describe, expect, it } from 'vitest';
import { QUICKNET, roundAtIso, roundTimeMs } from '../../../domain/beacon/chain';
import { FirstDieDrawn, GivenDice, ProbeDice } from '../../../domain/dice';
import { BeaconPending, InsufficientDice, RuleViolation } from '../../../domain/errors';
import type { Commit } from '../../../domain/fairness/hashChain';
import { decideAcceptance, decideReveal, RevealMismatch, RULES_FAULT } from '../../../domain/game/beaconRolls';
import { buildCommit } from '../../../domain/game/buildCommit';
import { decideCreate, decideGame } from '../../../domain/game/decideGame';
import { revealCommandId, SERVER_ACTOR } from '../../../domain/game/gameCommands';
import { evolveGame, type GameState } from '../../../domain/game/gameState';
import { textLine } from '../../../domain/game/textLine';
import type { Command, DomainEvent } from '../../../domain/ruleset';
import { diceRuleset } from '../../../domain/rulesets/dice';

const ROUND = 1000;
/** One period before round 1000: the pending round is 1000. */
const ACCEPTED_AT = new Date(roundTimeMs(QUICKNET, ROUND) - 3000).toISOString();
const SIGNATURE = 'b44679b9a59af2ec876b1a6b1ad52ea9b1615fc3982b19576350f93447cb1125e342b73a8dd2bacbe47e4b6b63ed5e39';

interface Step {
  actor: string;
  command: Command;
  events: DomainEvent[];
  dice?: { sides: number; value: number }[];
  commandId?: string;
  recordedAt?: string;
}

/** Given a beacon game with these commits … */
function given(...history: Step[]): GameState {
  const body = { ruleset: 'dice', randomness: { beacon: 'quicknet' } };
  const created = decideCreate(diceRuleset, body, 'c'.repeat(64), undefined, QUICKNET);
  let state: GameState | undefined;
  let prevHash = '0'.repeat(64);
  [{ actor: 'organizer', command: { type: 'CreateGame', payload: body }, events: [created] } as Step, ...history].forEach((step, i) => {
    const commit: Commit = buildCommit(
      {
        gameId: 'g',
        seq: i + 1,
        prevHash,
        commandId: step.commandId ?? `c${i}`,
        actor: step.actor,
        viaOrganizer: false,
        command: step.command,
        events: step.events,
        dice: step.dice ?? [],
        recordedAt: step.recordedAt ?? ACCEPTED_AT,
        kid: 'k',
      },
      () => '',
    );
    prevHash = commit.hash;
    state = evolveGame(state, commit);
  });
  return state!;
}

const roll: Command = { type: 'Roll', payload: { dice: '2d6', purpose: 'assault' } };
const pendingStep: Step = { actor: 'player1', command: roll, events: [{ type: 'BeaconRollPending', data: { round: ROUND, roundAt: roundAtIso(QUICKNET, ROUND) } }] };
const revealPayload = { pending: 2, round: ROUND, signature: SIGNATURE };

describe('beacon games: acceptance (beacon.md §2.1, §4)', () => {
  it('records the chain in GameCreated and keeps it in the state', () => {
    const state = given();
    expect(state.beacon).toEqual(QUICKNET);
    expect(state.pending).toBeUndefined();
  });

  it('turns a command that reaches its first die into a pending roll of the first round one period ahead', () => {
    expect(decideAcceptance(given(), roll, { actor: 'player1', now: ACCEPTED_AT }, ACCEPTED_AT)).toEqual(pendingStep.events);
    const oneMsLater = new Date(Date.parse(ACCEPTED_AT) + 1).toISOString();
    expect(decideAcceptance(given(), roll, { actor: 'player1', now: oneMsLater }, oneMsLater)[0].data.round).toBe(ROUND + 1);
  });

  it('refuses before any die as always', () => {
    const bad: Command = { type: 'Roll', payload: { dice: '101d6', purpose: 'too many' } };
    expect(() => decideAcceptance(given(), bad, { actor: 'player1', now: ACCEPTED_AT }, ACCEPTED_AT)).toThrow(RuleViolation);
  });

  it('commits a command that draws no die at once, with its own events', () => {
    const entropy: Command = { type: 'ContributeEntropy', payload: { entropy: 'x' } };
    expect(decideAcceptance(given(), entropy, { actor: 'player2', now: ACCEPTED_AT }, ACCEPTED_AT)).toEqual([{ type: 'EntropyContributed', data: { by: 'player2', entropy: 'x' } }]);
  });

  it('keeps the pending roll in the state and locks entropy', () => {
    const state = given(pendingStep);
    expect(state.pending).toMatchObject({ seq: 2, actor: 'player1', command: roll, round: ROUND, recordedAt: ACCEPTED_AT });
    expect(state.diceRolled).toBe(true);
  });

  it('answers every other append with beacon_pending while a roll waits, Seal and entropy included', () => {
    const state = given(pendingStep);
    for (const [actor, command] of [
      ['player2', roll],
      ['organizer', { type: 'Seal', payload: {} }],
      ['player1', { type: 'ContributeEntropy', payload: { entropy: 'late' } }],
    ] as [string, Command][]) {
      const error = (() => {
        try {
          decideGame(state, command, { actor, dice: new GivenDice([]), now: ACCEPTED_AT, serverSeed: '00' });
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(BeaconPending);
      expect((error as BeaconPending).details).toEqual({ round: ROUND, roundAt: roundAtIso(QUICKNET, ROUND) });
    }
  });

  it('probe dice stop at the first draw', () => {
    expect(() => new ProbeDice().roll(6)).toThrow(FirstDieDrawn);
  });
});

describe('beacon games: the reveal (beacon.md §2.3, §4)', () => {
  it("decides the pending command again with the beacon's dice, as its sender", () => {
    const events = decideReveal(given(pendingStep), revealPayload, new GivenDice([4, 5]));
    expect(events).toEqual([{ type: 'DiceRolled', data: { purpose: 'assault', dice: '2d6', rolls: [{ sides: 6, value: 4 }, { sides: 6, value: 5 }], modifier: 0, total: 9 } }]);
  });

  it('records a fault of the ruleset after a die as a refusal in fixed words, so the game goes on and every verifier agrees', () => {
    const state = given(pendingStep);
    const faulty = {
      ...state,
      ruleset: { ...state.ruleset, decide: (_s: unknown, _c: unknown, ctx: { dice: { roll(n: number): number } }) => (ctx.dice.roll(6), (undefined as unknown as { x: number[] }).x.length) },
    } as unknown as GameState;
    expect(decideReveal(faulty, revealPayload, new GivenDice([4, 5]))).toEqual([{ type: 'BeaconRollRefused', data: { code: 'internal_error', message: RULES_FAULT } }]);
  });

  it('lets dice that run out fail, never read as a refusal', () => {
    expect(() => decideReveal(given(pendingStep), revealPayload, new GivenDice([4]))).toThrow(InsufficientDice);
  });

  it('refuses a reveal that names another commit or round, or none is pending', () => {
    expect(() => decideReveal(given(pendingStep), { ...revealPayload, pending: 3 }, new GivenDice([4, 5]))).toThrow(RevealMismatch);
    expect(() => decideReveal(given(pendingStep), { ...revealPayload, round: ROUND + 1 }, new GivenDice([4, 5]))).toThrow(RevealMismatch);
    expect(() => decideReveal(given(), revealPayload, new GivenDice([4, 5]))).toThrow(RevealMismatch);
  });

  it('after the reveal the game takes commands again, and its text lines say what happened', () => {
    const reveal: Step = {
      actor: SERVER_ACTOR,
      commandId: revealCommandId(2),
      command: { type: 'RevealBeacon', payload: revealPayload },
      events: decideReveal(given(pendingStep), revealPayload, new GivenDice([4, 5])),
      dice: [{ sides: 6, value: 4 }, { sides: 6, value: 5 }],
    };
    const state = given(pendingStep, reveal);
    expect(state.pending).toBeUndefined();
    expect(state.commandIds.get('beacon/2')).toBe(3);
    expect(decideAcceptance(state, roll, { actor: 'player2', now: ACCEPTED_AT }, ACCEPTED_AT)[0].type).toBe('BeaconRollPending');
    const commit = (step: Step, seq: number) => ({ seq, actor: step.actor, command: step.command, events: step.events, hash: 'abcdef0123' }) as unknown as Commit;
    expect(textLine(state, commit(pendingStep, 2))).toBe(`#2 player1 Roll waits for drand round ${ROUND} (${roundAtIso(QUICKNET, ROUND)}) [abcdef01]`);
    expect(textLine(state, commit(reveal, 3))).toBe(`#3 server RevealBeacon drand round ${ROUND} for #2: DiceRolled [abcdef01]`);
    expect(textLine(state, commit(reveal, 3), commit(pendingStep, 2))).toBe(`#3 server RevealBeacon drand round ${ROUND} for #2: "assault": 2d6 = 4 5 = 9 [abcdef01]`);
  });
});
