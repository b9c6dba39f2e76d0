// A few lines in place of a framework. Text is always a text node: whatever a player
// typed is shown, never parsed as HTML.
export type Child = Node | string | number | null | undefined | false;
type Props = Record<string, string | number | boolean | EventListener | undefined>;

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') node.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name === 'value' && 'value' in node) (node as HTMLInputElement).value = String(value);
    else if (name === 'checked' && node instanceof HTMLInputElement) node.checked = Boolean(value);
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  append(node, ...children);
  return node;
}

export function append(parent: Node, ...children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

let ids = 0;
/** A unique id, for label `for` and aria attributes. */
export const uid = (prefix: string) => `${prefix}-${++ids}`;

/** A labelled control: the label's `for` names the control. */
export function field(label: string, control: HTMLElement, hint?: string): HTMLElement {
  control.id ||= uid('f');
  const hintEl = hint ? el('small', { id: `${control.id}-hint`, class: 'hint' }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return el('div', { class: 'field' }, el('label', { for: control.id }, label), control, hintEl);
}

/** A status line that screen readers read when it changes. */
export function statusLine(className = 'status'): HTMLElement & { say(text: string, kind?: 'ok' | 'error' | 'info'): void } {
  const node = el('p', { class: className, role: 'status', 'aria-live': 'polite' }) as unknown as HTMLElement & { say(text: string, kind?: string): void };
  node.say = (text, kind = 'info') => {
    node.textContent = text;
    node.dataset.kind = kind;
  };
  return node;
}
