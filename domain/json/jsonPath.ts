/** One step into a JSON value: an array index or an object key. */
export type JsonPathStep = number | string;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Paths longer than this show their start and end around `…`. */
const SHOWN_STEPS = 12;

/** `commits[3].dice[0]`, `["a key"]`: keys that are not identifiers are quoted as JSON strings. */
export function formatJsonPath(steps: readonly JsonPathStep[]): string {
  if (steps.length > SHOWN_STEPS) {
    const half = SHOWN_STEPS / 2;
    return `${formatJsonPath(steps.slice(0, half))}…${formatJsonPath(steps.slice(-half)).replace(/^(?!\[)/, '.')}`;
  }
  let out = '';
  for (const step of steps) {
    if (typeof step === 'number') out += `[${step}]`;
    else if (IDENTIFIER.test(step)) out += out ? `.${step}` : step;
    else out += `[${JSON.stringify(step)}]`;
  }
  return out || 'the top level';
}
