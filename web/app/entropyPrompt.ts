// On a new game, before the first die: a prompt to add entropy (docs/fairness.md §2), with
// what it is for. The timeline removes it once a die is rolled; entropy is refused after that.
import { ApiError, api, gamePath, newCommandId } from './api';
import { el, field, statusLine } from './dom';

export function entropyPrompt(gameId: string, token: string): HTMLElement {
  const input = el('input', { type: 'text', required: true, maxlength: 128, autocomplete: 'off', placeholder: 'any words, e.g. the weather where you are' });
  const button = el('button', { type: 'submit' }, 'Add entropy');
  const status = statusLine();
  let pending: { entropy: string; commandId: string } | undefined;
  const form = el('form', { class: 'entropy-prompt', 'aria-labelledby': 'entropy-title' },
    el('h2', { id: 'entropy-title' }, 'Before the first roll: add entropy'),
    el('p', {}, 'Whatever you type is mixed into the key the dice are drawn from, after the server committed to its own secret, so that nobody, the server included, could choose the dice in advance; once the first die is rolled, no more can be added.'),
    field('Entropy', input, 'Up to 128 characters; every side may add some.'),
    button, status);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const entropy = input.value;
    // A retry after no answer sends the same id: the entropy is stored at most once.
    if (pending?.entropy !== entropy) pending = { entropy, commandId: newCommandId() };
    button.disabled = true;
    status.say('Sending…');
    try {
      const reply = await api<{ commit: { seq: number } }>('POST', gamePath(gameId, '/commands'), { token, body: { commandId: pending.commandId, type: 'ContributeEntropy', payload: { entropy } } });
      pending = undefined;
      input.value = '';
      status.say(`Added as #${reply.commit.seq}. Anyone may add more until the first roll.`, 'ok');
    } catch (error) {
      if (error instanceof ApiError && error.status !== 503) {
        pending = undefined;
        status.say(`Refused (${error.status}): ${error.message}`, 'error');
      } else {
        status.say('No answer from the server: press the button again to retry (it is stored at most once).', 'error');
      }
    } finally {
      button.disabled = false;
    }
  });
  return form;
}
