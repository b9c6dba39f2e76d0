// The game's clock on the timeline (docs/clocks.md): whose move it is, since when, and each
// side's time used, from GET /games/{id}/clock. The page reads it again whenever it reads the
// game (a new commit, pushed or long-polled); between reads only the running side's time and
// the "ago" tick here, once a second, with no request.
import { pastLimit, type TimeLimits } from '../../domain/game/timeLimits';
import { whenText } from './commitRow';
import { clear, el } from './dom';

export interface ClockView {
  toMove: string | null;
  since: string;
  /** The recordedAt of the last commit: the sides' usedSeconds run to it. */
  asOf?: string;
  sides: Record<string, { usedSeconds: number }>;
  timeControl?: TimeLimits;
  overdue?: string[];
}

/** 4521.7 → "1:15:21": hours, minutes, seconds (hours go past 24). */
export function hms(seconds: number): string {
  if (!Number.isFinite(seconds)) return '—';
  const whole = Math.max(0, Math.floor(seconds));
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const s = whole % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** "just now", "42 s ago", "5 min ago", "2 h 5 min ago", "3 days 4 h ago". */
export function ago(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 5) return 'just now';
  if (s < 60) return `${s} s ago`;
  const min = Math.floor(s / 60);
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ${min % 60} min ago`;
  const days = Math.floor(h / 24);
  return `${days} day${days === 1 ? '' : 's'} ${h % 24} h ago`;
}

const timeOf = (iso: string | undefined) => {
  const t = iso === undefined ? NaN : Date.parse(iso);
  return Number.isNaN(t) ? undefined : t;
};

export interface GameClock {
  element: HTMLElement;
  /** A fresh reading from the server; null hides the clock (a server without one). */
  show(view: ClockView | null): void;
  dispose(): void;
}

export function gameClock(now: () => number = Date.now): GameClock {
  const toMoveLine = el('p', { class: 'to-move', 'data-field': 'to-move' });
  const limits = el('p', { class: 'hint', 'data-field': 'time-control' });
  const overdueLine = el('p', { class: 'warning overdue', 'data-field': 'overdue', hidden: true });
  const body = el('tbody');
  const element = el(
    'section',
    { class: 'game-clock', 'aria-labelledby': 'game-clock-title', hidden: true },
    el('h2', { id: 'game-clock-title' }, 'Clock'),
    toMoveLine,
    overdueLine,
    el('table', { class: 'clock-sides' },
      el('caption', { class: 'visually-hidden' }, 'Time used by each side'),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Side'), el('th', { scope: 'col' }, 'Time used (h:mm:ss)'), el('th', { scope: 'col' }, 'Status'))),
      body,
    ),
    limits,
    el('p', { class: 'hint' }, 'Each span between two commits counts for the side that was to move; the times come from the signed commits, so anyone can work them out again from the export.'),
  );
  let view: ClockView | null = null;
  let timer: ReturnType<typeof setInterval> | undefined;
  const cells = new Map<string, { used: HTMLElement; state: HTMLElement; row: HTMLTableRowElement }>();

  const set = (node: HTMLElement, text: string) => {
    if (node.textContent !== text) node.textContent = text;
  };

  const render = () => {
    if (!view) return;
    const at = now();
    const asOf = timeOf(view.asOf) ?? timeOf(view.since) ?? at;
    const since = timeOf(view.since);
    const running = Math.max(0, at - asOf) / 1000;
    const control = view.timeControl;
    const overdue = new Set(view.overdue ?? []);
    const reasons: string[] = [];
    for (const [side, { usedSeconds }] of Object.entries(view.sides)) {
      const cell = cells.get(side);
      if (!cell) continue;
      const moving = side === view.toMove;
      const used = usedSeconds + (moving ? running : 0);
      set(cell.used, hms(used));
      if (moving) {
        const onMove = since === undefined ? 0 : Math.max(0, at - since) / 1000;
        // The server's rule (domain/game/clock.ts), read on again as the clock runs here.
        const past = pastLimit(control, onMove * 1000, used * 1000);
        if (past) overdue.add(side);
        if (past === 'move') reasons.push(`${side} has been on this move for ${hms(onMove)}, past the ${hms(control!.perMoveSeconds!)} a move may take`);
        else if (past === 'total') reasons.push(`${side} has used ${hms(used)}, past the ${hms(control!.totalSeconds!)} in all`);
        else if (overdue.has(side)) reasons.push(`${side} is past the game’s time control`);
      } else if (overdue.has(side)) reasons.push(`${side} is past the game’s time control`);
      set(cell.state, [moving ? 'to move' : '', overdue.has(side) ? 'OVERDUE' : ''].filter(Boolean).join(', '));
      cell.row.classList.toggle('moving', moving);
      cell.row.classList.toggle('overdue', overdue.has(side));
    }
    if (view.toMove === null) set(toMoveLine, 'Nobody is to move now.');
    else set(toMoveLine, `${view.toMove} to move since ${since === undefined ? view.since : `${whenText(view.since)} (${ago(at - since)})`}.`);
    overdueLine.hidden = reasons.length === 0;
    set(overdueLine, reasons.length ? `Overdue: ${reasons.join('; ')}.` : '');
  };

  const tick = () => {
    clearInterval(timer);
    timer = undefined;
    if (view?.toMove) timer = setInterval(render, 1000);
  };

  return {
    element,
    show(next) {
      view = next;
      element.hidden = !next;
      if (!next) return tick();
      const sides = Object.keys(next.sides);
      if (sides.join('\n') !== Array.from(cells.keys()).join('\n')) {
        cells.clear();
        clear(body);
        for (const side of sides) {
          const used = el('td', { class: 'used' });
          const state = el('td', { class: 'clock-state' });
          const row = el('tr', { 'data-side': side }, el('th', { scope: 'row' }, side), used, state);
          cells.set(side, { used, state, row });
          body.append(row);
        }
      }
      const control = next.timeControl;
      const words = [control?.perMoveSeconds !== undefined ? `${hms(control.perMoveSeconds)} per move` : '', control?.totalSeconds !== undefined ? `${hms(control.totalSeconds)} in all per side` : ''].filter(Boolean);
      set(limits, words.length ? `Time control: ${words.join(', ')}.` : 'No time control: the clock only counts.');
      render();
      tick();
    },
    dispose() {
      clearInterval(timer);
    },
  };
}
