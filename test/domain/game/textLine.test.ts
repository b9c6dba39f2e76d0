import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../domain/dice';
import type { Commit } from '../../../domain/fairness/hashChain';
import { buildCommit } from '../../../domain/game/buildCommit';
import { decideCreate } from '../../../domain/game/decideGame';
import { evolveGame, type GameState } from '../../../domain/game/gameState';
import { escapeLine, textLine } from '../../../domain/game/textLine';
import type { Command } from '../../../domain/ruleset';
import { findRuleset } from '../../../domain/rulesets/registry';

const LINE_TERMINATOR = /[\n\r\u000b\u000c\u0085\u2028\u2029]/;
const BIDI_CONTROL = /[\u202a-\u202e\u2066-\u2069]/;
const FORGED_UNIT = '709 ID: die 6 -> no effect [4c1d9e2a]\n#3 allied Resign';

/**
 * Given a game of this ruleset with these commands recorded (decided without their schemas,
 * as a game stored before the schemas refused such text), its state and commits.
 */
function recorded(rulesetId: string, ...commands: { actor: string; command: Command; dice?: number[] }[]) {
  const ruleset = findRuleset(rulesetId)!;
  let state: GameState | undefined;
  let prevHash = '0'.repeat(64);
  const commits: Commit[] = [];
  const record = (actor: string, command: Command, decide: () => { events: Commit['events']; dice: Commit['dice'] }) => {
    const { events, dice } = decide();
    const commit = buildCommit(
      { gameId: 'g', seq: commits.length + 1, prevHash, commandId: `c${commits.length}`, actor, viaOrganizer: false, command, events, dice, recordedAt: '', kid: 'k' },
      () => '',
    );
    commits.push(commit);
    prevHash = commit.hash;
    state = evolveGame(state, commit);
  };
  record('organizer', { type: 'CreateGame', payload: { ruleset: rulesetId } }, () => ({ events: [decideCreate(ruleset, { ruleset: rulesetId }, 'c'.repeat(64))], dice: [] }));
  for (const { actor, command, dice = [] } of commands) {
    record(actor, command, () => {
      const given = new GivenDice(dice);
      return { events: ruleset.decide(state!.rules, command, { actor, dice: given, now: '' }), dice: [...given.drawn] };
    });
  }
  /** The text line of commit `seq`, as the service writes it with the game's state. */
  const lineOf = (seq: number) => textLine(state, commits[seq - 1]);
  return { commits, lineOf };
}

const hash8 = (commit: Commit) => commit.hash.slice(0, 8);

describe('text lines for chat logs', () => {
  it('are written as before for ordinary text: #<seq> <actor> <type> <summary> [<hash8>]', () => {
    const { commits, lineOf } = recorded('dice', { actor: 'player1', command: { type: 'Roll', payload: { dice: '3d6+1', purpose: 'bombardment of 2708' } }, dice: [4, 2, 6] });
    expect(lineOf(1)).toBe(`#1 organizer CreateGame dice: player1 vs player2, commitment cccccccc [${hash8(commits[0])}]`);
    expect(lineOf(2)).toBe(`#2 player1 Roll "bombardment of 2708": 3d6+1 = 4 2 6 +1 = 13 [${hash8(commits[1])}]`);
  });

  it('stay one line when a unit id holds a forged line, showing the line feed as \\n', () => {
    const { commits, lineOf } = recorded('normandy44', { actor: 'german', command: { type: 'IsolationAttrition', payload: { unitId: FORGED_UNIT, canTraceSupply: false, troopQuality: 0 } }, dice: [5] });
    const line = lineOf(2);
    expect(line).toBe(`#2 german IsolationAttrition 709 ID: die 6 -> no effect [4c1d9e2a]\\n#3 allied Resign: die 5 -> no effect [${hash8(commits[1])}]`);
    expect(line).not.toMatch(LINE_TERMINATOR);
  });

  it('stay one line, left to right, whatever the ids of France 1944 hold', () => {
    const hqId = 'HQ\r\n#9 german ActivateHQ \u2028\u2029\u0085\u000b\u000c\u202eevil\u2066x\u2069';
    const { commits, lineOf } = recorded(
      'france44',
      { actor: 'organizer', command: { type: 'StartTurn', payload: { turn: 1 } } },
      { actor: 'allied', command: { type: 'ActivateHQ', payload: { hqId } } },
    );
    const line = lineOf(3);
    expect(line).toBe(`#3 allied ActivateHQ HQ HQ\\r\\n#9 german ActivateHQ \\u2028\\u2029\\u0085\\u000b\\u000c\\u202eevil\\u2066x\\u2069 (activation 1 this turn) [${hash8(commits[2])}]`);
    expect(line).not.toMatch(LINE_TERMINATOR);
    expect(line).not.toMatch(BIDI_CONTROL);
  });

  it('stay one line when a purpose holds what JSON leaves as it is (U+2028, bidi controls)', () => {
    const { lineOf } = recorded('memoir44-d6', { actor: 'allies', command: { type: 'CardRoll', payload: { dice: 1, purpose: 'Air\u2028#3 axis EndTurn\u202e' } }, dice: [2] });
    expect(lineOf(2)).toMatch(/^#2 allies CardRoll "Air\\u2028#3 axis EndTurn\\u202e": 2 -> star \[[0-9a-f]{8}\]$/);
  });

  it('escape backslashes, so that an escape always means the character it stands for', () => {
    expect(escapeLine('a\nb')).toBe('a\\nb');
    expect(escapeLine('a\\nb')).toBe('a\\\\nb');
    expect(escapeLine('a\\u2028b')).not.toBe(escapeLine('a\u2028b'));
    expect(escapeLine('tab\there')).toBe('tab\\there');
  });

  it('escape every control, separator and bidi control character, and nothing else', () => {
    const unsafe = [
      ...Array.from({ length: 0x20 }, (_, c) => c),
      ...Array.from({ length: 0xa0 - 0x7f }, (_, i) => 0x7f + i),
      0x061c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
    ];
    for (const code of unsafe) {
      const escaped = escapeLine(String.fromCharCode(code));
      expect(escaped, `U+${code.toString(16)}`).toMatch(/^\\(n|r|t|u[0-9a-f]{4})$/);
    }
    const ordinary = ' !"#-~\u00a0é€ال第🪖\u200b';
    expect(escapeLine(ordinary)).toBe(ordinary);
  });
});
