import { el } from './dom';

export interface Die {
  sides: number;
  value: number;
}

/** The dice of a commit, as dice: a d6 is a square face, any other die says its sides. */
export function diceView(dice: Die[]): HTMLElement {
  const list = el('span', { class: 'dice', role: 'list', 'aria-label': dice.length ? `${dice.length} ${dice.length === 1 ? 'die' : 'dice'}` : 'no dice' });
  for (const die of dice) {
    list.append(
      el('span', { class: die.sides === 6 ? 'die d6' : 'die dn', role: 'listitem', title: `d${die.sides}`, 'aria-label': `d${die.sides}: ${die.value}` },
        el('span', { class: 'value', 'aria-hidden': 'true' }, die.value),
        die.sides === 6 ? null : el('span', { class: 'sides', 'aria-hidden': 'true' }, `d${die.sides}`)),
    );
  }
  return list;
}
