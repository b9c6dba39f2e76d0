import type { DieFigures } from './dieFigures';
import type { GameStats } from './gameStats';
import type { PublicStats } from './publicStats';

/** How the figures are written wherever they are shown as text (the CLI, the web pages): the same digits everywhere. */
export const chiSquareText = (figures: DieFigures): string =>
  figures.chiSquare === null ? 'χ² not computed (too few rolls)' : `χ² = ${figures.chiSquare.toFixed(2)}, df = ${figures.degreesOfFreedom}, p = ${pValueText(figures.pValue!)}`;

export const pValueText = (p: number): string => (p < 0.0001 ? p.toExponential(1) : p.toFixed(4));

export const percentText = (share: number): string => `${(share * 100).toFixed(1)}%`;

function dieLines(label: string, figures: DieFigures): string[] {
  const lines = [`${label}: ${figures.rolls} rolls; ${chiSquareText(figures)}`, `  ${figures.words}`];
  for (const face of figures.faces) {
    // On too few rolls every face looks off: marked only when the test is trusted.
    const mark = face.fairInside || figures.chiSquare === null ? '' : '  (fair share outside the 95% range)';
    lines.push(`  ${String(face.face).padStart(4)}: ${String(face.count).padStart(6)} (expected ${face.expected.toFixed(1)}; 95% range ${percentText(face.low)}–${percentText(face.high)})${mark}`);
  }
  return lines;
}

/** A game's statistics as lines of text; roles are player data, shown through JSON.stringify so that no name can forge a line. */
export function gameStatsLines(stats: GameStats): string[] {
  if (stats.dice.length === 0) return [`game ${stats.gameId}: no dice rolled`];
  const lines = [`game ${stats.gameId}: fairness statistics (${stats.publicStats ? 'counted' : 'not counted'} in the public statistics)`];
  for (const die of stats.dice) {
    lines.push(...dieLines(`d${die.sides}, every role`, die.all));
    for (const { role, figures } of die.byRole) lines.push(...dieLines(`d${die.sides}, ${JSON.stringify(role)}`, figures));
  }
  return lines;
}

export function publicStatsLines(stats: PublicStats): string[] {
  if (stats.dice.length === 0) return ['no sealed games counted yet'];
  return stats.dice.flatMap((die) => dieLines(`d${die.sides} over ${die.games} sealed game${die.games === 1 ? '' : 's'}`, die.figures));
}
