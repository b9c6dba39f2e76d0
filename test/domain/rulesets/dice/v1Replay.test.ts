import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GivenDice } from '../../../../domain/dice';
import type { Commit } from '../../../../domain/fairness/hashChain';
import { evolveGame, type GameState } from '../../../../domain/game/gameState';
import { textLine } from '../../../../domain/game/textLine';
import { diceRuleset } from '../../../../domain/rulesets/dice';
import { verifyBundle, type ExportBundle } from '../../../../domain/verify/verifyBundle';

/** A dice game recorded before rules version 2 (commit 1a7b89c's code): d66 was a 66-sided die then. */
const recorded = JSON.parse(readFileSync(new URL('./fixtures/v1-game.json', import.meta.url), 'utf8')) as {
  export: ExportBundle;
  lines: string[];
  evaluations: { input: { dice: unknown }; dice: number[]; result: unknown; breakdown: unknown }[];
};

describe('dice: a game recorded under rules version 1', () => {
  it('still verifies: every command replays to the events and dice it recorded, d66 as a 66-sided die', () => {
    const report = verifyBundle(recorded.export);
    expect(report.failures).toEqual([]);
    expect(report).toMatchObject({ ok: true, sealed: true, checkedCommits: 25 });
  });

  it('writes the same text line for every commit', () => {
    let state: GameState | undefined;
    const lines = (recorded.export.commits as Commit[]).map((commit) => {
      const line = textLine(state, commit);
      state = evolveGame(state, commit);
      return line;
    });
    expect(lines).toEqual(recorded.lines);
  });

  it('/evaluate with rulesVersion 1 answers every expression as it did', () => {
    for (const { input, dice, result, breakdown } of recorded.evaluations) {
      const options = diceRuleset.options.parse({ rulesVersion: 1 });
      expect(diceRuleset.procedures.roll.evaluate(diceRuleset.procedures.roll.input.parse(input), options, new GivenDice(dice))).toEqual({ result, breakdown });
    }
  });
});
