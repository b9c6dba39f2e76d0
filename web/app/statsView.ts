// Dice statistics as a reader sees them (docs/fairness-stats.md): per die size, the verdict
// in words, χ² and p, a bar chart of counts per face against the expected count (SVG, with
// its numbers said in text), and a table with each face's 95% range. Roles are player data:
// text nodes only.
import type { DieFigures } from '../../domain/stats/dieFigures';
import type { GameStats } from '../../domain/stats/gameStats';
import { chiSquareText, percentText } from '../../domain/stats/statsText';
import { ApiError, api, gamePath } from './api';
import { el } from './dom';

const SVG = 'http://www.w3.org/2000/svg';
const CHART_WIDTH = 600;
const CHART_HEIGHT = 160;
/** Bars of larger dice are too narrow to label one by one: their table folds away. */
const LABELLED_FACES = 20;

function svg(tag: string, attributes: Record<string, string | number>, ...children: (Node | string)[]): SVGElement {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  for (const child of children) node.append(child);
  return node;
}

/** Bars of counts per face, a line at the expected count; the same numbers in its label and in the table beside it. */
function barChart(figures: DieFigures, title: string): SVGElement {
  const top = Math.max(1, ...figures.faces.map((f) => Math.max(f.count, f.expected)));
  const slot = CHART_WIDTH / figures.sides;
  const barHeight = (n: number) => (n / top) * (CHART_HEIGHT - 20);
  const marked = flagsOutside(figures);
  const bars = figures.faces.map((face) =>
    svg(
      'rect',
      { class: marked(face) ? 'bar outside' : 'bar', x: (face.face - 1) * slot + slot * 0.1, width: Math.max(0.5, slot * 0.8), y: CHART_HEIGHT - 20 - barHeight(face.count), height: barHeight(face.count) },
      svg('title', {}, `face ${face.face}: ${face.count} (expected ${face.expected.toFixed(1)})`),
    ),
  );
  const labels = figures.sides <= LABELLED_FACES ? figures.faces.map((face) => svg('text', { class: 'face', x: (face.face - 0.5) * slot, y: CHART_HEIGHT - 5, 'text-anchor': 'middle' }, String(face.face))) : [];
  const expectedY = CHART_HEIGHT - 20 - barHeight(figures.rolls / figures.sides);
  const summary = `${title}: ${figures.rolls} rolls; counts per face ${figures.faces.map((f) => f.count).join(', ')}; ${figures.rolls > 0 ? (figures.rolls / figures.sides).toFixed(1) : 0} expected for each`;
  return svg(
    'svg',
    { class: 'chart', viewBox: `0 0 ${CHART_WIDTH} ${CHART_HEIGHT}`, role: 'img', 'aria-label': summary },
    ...bars,
    svg('line', { class: 'expected', x1: 0, x2: CHART_WIDTH, y1: expectedY, y2: expectedY }),
    ...labels,
  );
}

/** A face whose range leaves out the fair share is marked only when there are rolls enough to judge: on a handful, every face would be. */
const flagsOutside = (figures: DieFigures) => (face: DieFigures['faces'][number]) => figures.chiSquare !== null && !face.fairInside;

function faceTable(figures: DieFigures, title: string): HTMLElement {
  const marked = flagsOutside(figures);
  const table = el(
    'table',
    { class: 'faces' },
    el('caption', {}, `${title}: counts per face`),
    el('thead', {}, el('tr', {}, ...['Face', 'Count', 'Expected', 'Share', '95% range'].map((h) => el('th', { scope: 'col' }, h)))),
    el(
      'tbody',
      {},
      figures.faces.map((face) =>
        el(
          'tr',
          { class: marked(face) ? 'outside' : '' },
          el('th', { scope: 'row' }, String(face.face)),
          el('td', {}, String(face.count)),
          el('td', {}, face.expected.toFixed(1)),
          el('td', {}, percentText(face.share)),
          el('td', {}, `${percentText(face.low)}–${percentText(face.high)}${marked(face) ? ' (fair share outside)' : ''}`),
        ),
      ),
    ),
  );
  const folded = figures.sides > LABELLED_FACES || figures.chiSquare === null;
  return folded ? el('details', {}, el('summary', {}, `Every face of the d${figures.sides}: counts and ranges`), table) : table;
}

/** One die size's figures: its words, χ² and p, chart and table. `title` names it (d6, or d6 of a side). */
export function dieFiguresView(figures: DieFigures, title: string, heading: 'h2' | 'h3' | 'h4' = 'h3'): HTMLElement {
  // Focusable, so that a keyboard reaches each die size and a screen reader reads its verdict on arrival.
  return el(
    'section',
    { class: `die-figures verdict-${figures.verdict}`, tabindex: 0, 'aria-label': `${title}: ${figures.words}` },
    el(heading, {}, title),
    el('p', { class: 'stats-words' }, figures.words),
    el('p', { class: 'chi-square' }, `${figures.rolls} rolls; ${chiSquareText(figures)}`),
    barChart(figures, title),
    faceTable(figures, title),
  );
}

/** What the figures mean, in two sentences, wherever they are shown. */
export const STATS_PRIMER =
  'A fair die still comes up unevenly: the words say how often fair dice look at least this uneven, and each face’s 95% range is where its true share plausibly lies given this many rolls; with several faces, one often falls outside its range by chance alone. Small samples look uneven all the time.';

/** A sealed game's statistics, every role together then each role. */
export function gameStatsView(stats: GameStats): HTMLElement {
  const section = el('section', { class: 'game-stats', 'aria-labelledby': 'game-stats-title', 'data-stats': stats.gameId }, el('h2', { id: 'game-stats-title' }, 'Dice statistics'), el('p', { class: 'hint' }, STATS_PRIMER));
  if (stats.dice.length === 0) section.append(el('p', {}, 'No dice were rolled in this game.'));
  for (const die of stats.dice) {
    section.append(dieFiguresView(die.all, `d${die.sides}, every side`));
    for (const { role, figures } of die.byRole) section.append(dieFiguresView(figures, `d${die.sides}, ${role}`, 'h4'));
  }
  section.append(el('p', { class: 'hint' }, stats.publicStats ? 'This game counts in the ' : 'This game is kept out of the ', el('a', { href: '#/stats' }, 'public statistics'), '.'));
  return section;
}

/** Shown after `anchor` once the game is sealed, fetched once (GET /games/{id}/stats). */
export function showGameStats(anchor: HTMLElement, gameId: string, token: string): void {
  if (anchor.dataset.statsShown) return;
  anchor.dataset.statsShown = 'yes';
  const slot = el('div', { class: 'game-stats-slot' }, el('p', { class: 'hint' }, 'Loading the dice statistics…'));
  anchor.after(slot);
  api<GameStats>('GET', gamePath(gameId, '/stats'), { token })
    .then((stats) => slot.replaceChildren(gameStatsView(stats)))
    .catch((error) => slot.replaceChildren(el('p', { class: 'hint' }, `The dice statistics could not be loaded: ${error instanceof ApiError ? error.message : 'the server cannot be reached'}`)));
}
