// The timeline's clock, loaded when the timeline opens (a chunk of its own, web/build.ts): it
// keeps the first visit of the web app under its size limit. Readings that come before the
// code are kept and shown once it is there.
import { el } from './dom';
import type { ClockView, GameClock } from './gameClock';

export function clockSlot(): Omit<GameClock, 'element'> & { element: HTMLElement } {
  const element = el('div', { class: 'clock-slot' });
  let clock: GameClock | undefined;
  let latest: ClockView | null = null;
  let disposed = false;
  import('./gameClock')
    .then(({ gameClock }) => {
      if (disposed) return;
      clock = gameClock();
      element.append(clock.element);
      clock.show(latest);
    })
    .catch(() => {});
  return {
    element,
    show(view) {
      latest = view;
      clock?.show(view);
    },
    dispose() {
      disposed = true;
      clock?.dispose();
    },
  };
}
