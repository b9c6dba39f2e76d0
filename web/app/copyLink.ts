import { el, field } from './dom';

/** A read-only link with a Copy button; when the clipboard is refused, the link is selected for the person to copy. */
export function copyLink(label: string, link: string): HTMLElement {
  const input = el('input', { type: 'text', readonly: true, value: link, class: 'link', spellcheck: 'false' });
  const done = el('span', { class: 'copied', 'aria-live': 'polite' });
  const button = el('button', { type: 'button', class: 'small', 'aria-label': `Copy ${label}` }, 'Copy');
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(link);
      done.textContent = 'Copied';
    } catch {
      input.focus();
      input.select();
      done.textContent = 'Selected: press Ctrl+C to copy';
    }
  });
  const wrapper = field(label, input);
  wrapper.classList.add('copy-link');
  wrapper.append(button, done);
  return wrapper;
}
