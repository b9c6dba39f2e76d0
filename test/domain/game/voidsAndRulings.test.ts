import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../domain/dice';
import { DomainError, RuleViolation } from '../../../domain/errors';
import type { Commit } from '../../../domain/fairness/hashChain';
import { decideAcceptance } from '../../../domain/game/beaconRolls';
import { buildCommit } from '../../../domain/game/buildCommit';
import { authorize, checkPayload, decideCreate, decideGame } from '../../../domain/game/decideGame';
import { evolveGame, type GameState } from '../../../domain/game/gameState';
import { textLines } from '../../../domain/game/textLine';
import type { DomainEvent } from '../../../domain/ruleset';
import { findRuleset } from '../../../domain/rulesets/registry';
import { buildBeaconGame } from '../../support/beaconGame';

type Step = [actor: string, type: string, payload: unknown, dice?: number[]];

/** A game played command by command through the game's checks, decide and evolve, as the service records it. */
function play(ruleset: string, steps: readonly Step[], options: Record<string, unknown> = {}) {
  const rules = findRuleset(ruleset)!;
  const body = { ruleset, options };
  let prevHash = '0'.repeat(64);
  const commits: Commit[] = [];
  let state: GameState | undefined;
  const record = (actor: string, command: { type: string; payload: unknown }, events: DomainEvent[], dice: { sides: number; value: number }[]) => {
    const commit = buildCommit(
      { gameId: 'g-void', seq: commits.length + 1, prevHash, commandId: `c${commits.length + 1}`, actor, viaOrganizer: false, command, events, dice, recordedAt: '2026-11-27T09:00:00.000Z', kid: 'k' },
      () => '',
    );
    prevHash = commit.hash;
    commits.push(commit);
    state = evolveGame(state, commit);
  };
  record('organizer', { type: 'CreateGame', payload: body }, [decideCreate(rules, body, 'c'.repeat(64))], []);
  const apply = ([actor, type, payload, values = []]: Step) => {
    const check = checkPayload(rules, type, payload);
    if (!check.ok) throw new Error(`${type} payload refused: ${JSON.stringify(check)}`);
    const dice = new GivenDice(values);
    const events = decideGame(state!, { type, payload: check.payload }, { actor, dice, now: '2026-11-27T09:00:00.000Z' });
    record(actor, { type, payload: check.payload }, events, dice.drawn.map(({ sides, value }) => ({ sides, value })));
    return events;
  };
  for (const step of steps) apply(step);
  return { get state() { return state!; }, commits, apply };
}

function refusal(run: () => unknown): RuleViolation {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(RuleViolation);
    return error as RuleViolation;
  }
  throw new Error('not refused');
}

const roll = (purpose: string, dice = '2d6'): Step => ['player1', 'Roll', { dice, purpose }, [3, 4]];

describe('Void in the dice ruleset (voiding "any")', () => {
  it('voids any roll: the commit stays, the game knows it voided, by which commit and why', () => {
    const game = play('dice', [roll('attack'), roll('defence')]);
    const events = game.apply(['organizer', 'Void', { seq: 2, reason: 'rolled before the attack was declared' }]);
    expect(events).toEqual([{ type: 'CommitVoided', data: { seq: 2, reason: 'rolled before the attack was declared' } }]);
    expect(game.state.voided.get(2)).toEqual({ by: 4, reason: 'rolled before the attack was declared' });
    // Its dice were rolled and stay recorded.
    expect(game.commits[1].dice).toEqual([{ sides: 6, value: 3 }, { sides: 6, value: 4 }]);
  });

  it('refuses a second Void of the same roll, a game command, and a commit that is not there yet', () => {
    const game = play('dice', [['player1', 'ContributeEntropy', { entropy: 'x' }], roll('attack'), ['organizer', 'Void', { seq: 3, reason: 'wrong dice' }]]);
    expect(refusal(() => game.apply(['organizer', 'Void', { seq: 3, reason: 'again' }])).message).toBe('#3 is already voided (by #4).');
    const entropy = refusal(() => game.apply(['organizer', 'Void', { seq: 2, reason: 'no' }]));
    expect(entropy.rule).toBe('void: only commits the rules decided');
    expect(entropy.message).toMatch(/#2 is not a move the rules decided/);
    expect(refusal(() => game.apply(['organizer', 'Void', { seq: 4, reason: 'a void' }])).rule).toBe('void: only commits the rules decided');
    expect(refusal(() => game.apply(['organizer', 'Void', { seq: 9, reason: 'later' }])).message).toBe('There is no commit #9 in this game yet (its last is #4).');
  });

  it('keeps the ruleset state as it was: the roll is marked, not taken out of the count', () => {
    const game = play('dice', [roll('attack'), roll('defence')]);
    const before = game.state.rules;
    game.apply(['organizer', 'Void', { seq: 2, reason: 'misread' }]);
    expect(game.state.rules).toEqual(before);
  });

  it('reads a voided roll\'s text line as voided, and the Void\'s own line with its reason', () => {
    const game = play('dice', [roll('attack'), ['organizer', 'Void', { seq: 2, reason: 'too many dice' }]]);
    expect(textLines(game.state, game.commits[1])).toEqual([expect.stringMatching(/^#2 player1 Roll "attack": 2d6 = 3 4 = 7 \(voided by #3\) \[[0-9a-f]{8}\]$/)]);
    expect(textLines(game.state, game.commits[2])).toEqual([expect.stringMatching(/^#3 organizer Void #2: "too many dice" \[[0-9a-f]{8}\]$/)]);
  });

  it('is the organizer\'s alone: a side may never send it (403)', () => {
    const game = play('dice', [roll('attack')]);
    expect(() => authorize(game.state, 'Void', 'player1', false)).toThrow(/player1 side may not send Void/);
    expect(() => authorize(game.state, 'Ruling', 'player2', false)).toThrow(/player2 side may not send Ruling/);
    expect(() => authorize(game.state, 'Void', 'organizer', false)).not.toThrow();
  });
});

describe('Void of a turn\'s hand-over', () => {
  it('refuses to void a PassTurn, which would leave the move where it is, and still voids the roll after it', () => {
    const game = play('dice', [roll('attack'), ['player1', 'PassTurn', { to: 'player2' }], ['player2', 'Roll', { dice: '2d6', purpose: 'defence' }, [5, 6]]]);
    expect(refusal(() => game.apply(['organizer', 'Void', { seq: 3, reason: 'too early' }])).rule).toBe('void: only commits the rules decided');
    expect(refusal(() => game.apply(['organizer', 'Void', { seq: 3, reason: 'too early' }])).message).toContain('PassTurn');
    game.apply(['organizer', 'Void', { seq: 4, reason: 'wrong dice' }]);
    expect([...game.state.voided.keys()]).toEqual([4]);
    expect(game.state.clock.toMove).toBe('player2');
  });
});

describe('Void in the table ruleset (voiding "any")', () => {
  it('voids any resolution, the last or an earlier one, and leaves the rules state as it was', () => {
    const table = JSON.parse(readFileSync(new URL('../../../docs/examples/tables/france44-crt-mobile.json', import.meta.url), 'utf8'));
    const resolve = (purpose: string): Step => ['player1', 'Resolve', { table: table.id, attack: 9, defence: 3, purpose }, [3]];
    const game = play('table', [resolve('hex 0912'), resolve('hex 1013')], { tables: [table] });
    const before = game.state.rules;
    expect(game.apply(['organizer', 'Void', { seq: 2, reason: 'wrong column' }])).toEqual([{ type: 'CommitVoided', data: { seq: 2, reason: 'wrong column' } }]);
    expect(game.apply(['organizer', 'Void', { seq: 3, reason: 'wrong table' }])).toHaveLength(1);
    expect(game.state.rules).toEqual(before);
    expect([...game.state.voided.keys()]).toEqual([2, 3]);
  });
});

describe('Void in a ruleset with state (voiding "latest": france44)', () => {
  const fixture = JSON.parse(readFileSync(new URL('../rulesets/france44/fixtures/game-before-issue-19.json', import.meta.url), 'utf8')) as { bundle: { commits: Commit[] } };
  /** The fixture's game up to and including commit `through` (its last, 9, is the seal). */
  const upTo = (through: number) => fixture.bundle.commits.slice(0, through).reduce<GameState | undefined>(evolveGame, undefined)!;
  const voidCommit = (state: GameState, seq: number, at: number) => {
    const events = decideGame(state, { type: 'Void', payload: { seq, reason: 'the director ruled the attack illegal' } }, { actor: 'organizer', dice: new GivenDice([]), now: '' });
    const commit = buildCommit(
      { gameId: state.gameId, seq: at, prevHash: state.lastHash, commandId: `void-${at}`, actor: 'organizer', viaOrganizer: false, command: { type: 'Void', payload: { seq, reason: 'x' } }, events, dice: [], recordedAt: state.lastRecordedAt, kid: 'k' },
      () => '',
    );
    return evolveGame(state, commit);
  };

  it('restores exactly the rules state from before the last commit the rules decided, so the next command is decided on it', () => {
    const afterEight = upTo(8);
    const voided = voidCommit(afterEight, 8, 9);
    expect(voided.rules).toEqual(upTo(7).rules);
    expect(voided.rules).not.toEqual(afterEight.rules);
    expect(voided.voided.get(8)).toEqual({ by: 9, reason: 'the director ruled the attack illegal' });
  });

  it('refuses an earlier commit, naming the last one, and the one before once the last is voided', () => {
    const state = upTo(8);
    const earlier = refusal(() => decideGame(state, { type: 'Void', payload: { seq: 6, reason: 'x' } }, { actor: 'organizer', dice: new GivenDice([]), now: '' }));
    expect(earlier.rule).toBe('void: only the last commit the rules decided');
    expect(earlier.message).toBe('Only the last commit the rules decided can be voided in a france44 game: #8 came after #6 and was decided on what #6 left.');
    const voided = voidCommit(state, 8, 9);
    const again = refusal(() => decideGame(voided, { type: 'Void', payload: { seq: 7, reason: 'x' } }, { actor: 'organizer', dice: new GivenDice([]), now: '' }));
    expect(again.message).toBe('Only the last commit the rules decided can be voided in a france44 game, and that one (#8) is voided already.');
  });

  it('refuses everything after the seal, a Void included', () => {
    const sealed = upTo(9);
    expect(() => decideGame(sealed, { type: 'Void', payload: { seq: 8, reason: 'x' } }, { actor: 'organizer', dice: new GivenDice([]), now: '' })).toThrow(DomainError);
  });
});

describe('Ruling', () => {
  it('records the text and the commits it concerns, and reads as a line', () => {
    const game = play('dice', [roll('attack'), roll('attack again')]);
    const events = game.apply(['organizer', 'Ruling', { text: 'Roll #3 stands; #2 was a practice roll.', concerning: [2, 3] }]);
    expect(events).toEqual([{ type: 'RulingRecorded', data: { text: 'Roll #3 stands; #2 was a practice roll.', concerning: [2, 3] } }]);
    expect(game.state.rulings).toBe(1);
    expect(textLines(game.state, game.commits[3])).toEqual([expect.stringMatching(/^#4 organizer Ruling "Roll #3 stands; #2 was a practice roll." concerning #2, #3 \[[0-9a-f]{8}\]$/)]);
  });

  it('may concern no commit, and refuses a commit not yet recorded', () => {
    const game = play('dice', [roll('attack')]);
    expect(game.apply(['organizer', 'Ruling', { text: 'Time control waived for this game.', concerning: [] }])).toHaveLength(1);
    const refused = refusal(() => game.apply(['organizer', 'Ruling', { text: 'x', concerning: [2, 7] }]));
    expect(refused.rule).toBe('ruling: about commits of this game');
    expect(refused.message).toMatch(/no commit #7/);
  });

  it('refuses (400) a repeated commit, more than 50, seq 0, and a text with a line break', () => {
    const dice = findRuleset('dice')!;
    const bad = (payload: unknown) => checkPayload(dice, 'Ruling', payload).ok;
    expect(bad({ text: 'ok', concerning: [2, 2] })).toBe(false);
    expect(bad({ text: 'ok', concerning: Array.from({ length: 51 }, (_, i) => i + 1) })).toBe(false);
    expect(bad({ text: 'ok', concerning: [0] })).toBe(false);
    expect(bad({ text: 'two\nlines', concerning: [] })).toBe(false);
    expect(checkPayload(dice, 'Void', { seq: 1, reason: 'the creation' }).ok).toBe(false);
    expect(bad({ text: 'ok', concerning: [1, 2] })).toBe(true);
  });
});

describe('Void in a beacon game', () => {
  it('takes back a revealed roll by its reveal, and refuses the commit that waited for the round', () => {
    const { bundle } = buildBeaconGame({ commands: [{ actor: 'player1', type: 'Roll', payload: { dice: '1d6', purpose: 'volley' } }], sealed: false });
    const state = bundle.commits.reduce<GameState | undefined>(evolveGame, undefined)!;
    const pending = bundle.commits.find((c) => c.events[0]?.type === 'BeaconRollPending')!;
    const reveal = bundle.commits.find((c) => c.command.type === 'RevealBeacon')!;
    const ctx = { actor: 'organizer', now: reveal.recordedAt };
    expect(decideAcceptance(state, { type: 'Void', payload: { seq: reveal.seq, reason: 'wrong table' } }, ctx, reveal.recordedAt)).toEqual([
      { type: 'CommitVoided', data: { seq: reveal.seq, reason: 'wrong table' } },
    ]);
    expect(() => decideAcceptance(state, { type: 'Void', payload: { seq: pending.seq, reason: 'x' } }, ctx, reveal.recordedAt)).toThrow(/void its reveal/);
  });
});
