/**
 * What every answer to a hostile request must be (hostileInput.test.ts): never a 5xx or a
 * stack trace, every refusal the JSON error shape, and every chat-log text exactly one line
 * per commit that nothing inside can break, reorder or forge.
 */
export interface Answer {
  status: number;
  text: string;
  /** The answer's Content-Type: an error asked for as text/plain is one line (docs/http-api.md "Errors as one line of text"). */
  contentType?: string;
}

export interface Failure {
  check: string;
  detail: string;
}

const STACK_TRACE = /\n\s+at .+(\.ts|\.js|\.mjs|\.cjs):\d+|\bat (?:async )?[\w$.<>]+ \((?:file:|node:|\/)[^)]*:\d+:\d+\)/;

/** Status, stack trace and error shape of one answer. */
export function checkAnswer(answer: Answer): Failure[] {
  const failures: Failure[] = [];
  if (answer.status === 0) failures.push({ check: 'no answer', detail: answer.text.slice(0, 300) });
  if (answer.status >= 500) failures.push({ check: '5xx answer', detail: `${answer.status} ${answer.text.slice(0, 300)}` });
  if (STACK_TRACE.test(answer.text)) failures.push({ check: 'stack trace in the answer', detail: answer.text.slice(0, 300) });
  if (answer.status >= 400 && answer.contentType?.startsWith('text/plain')) {
    const line = answer.text.endsWith('\n') ? answer.text.slice(0, -1) : answer.text;
    if (!line.startsWith(`${answer.status} `) || !/^\d{3} [a-z_]+: /.test(line)) failures.push({ check: 'text error not `<status> <code>: <message>`', detail: answer.text.slice(0, 300) });
    failures.push(...lineFailures(line));
    return failures;
  }
  if (answer.status >= 400) {
    let parsed: any;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      failures.push({ check: 'error is not JSON', detail: `${answer.status} ${answer.text.slice(0, 200)}` });
      return failures;
    }
    const shaped =
      parsed !== null &&
      typeof parsed === 'object' &&
      Object.keys(parsed).join() === 'error' &&
      typeof parsed.error?.code === 'string' &&
      typeof parsed.error?.message === 'string';
    if (!shaped) failures.push({ check: 'error without the { error: { code, message } } shape', detail: answer.text.slice(0, 300) });
  }
  return failures;
}

/** Unicode line breaks (UAX #14 classes BK, CR, LF, NL): each would start a new chat line. */
const LINE_BREAK = /[\n\r\u000b\u000c\u0085\u2028\u2029]/;
/** Unicode Bidi_Control: each can reorder what a reader sees on the line. */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** The other C0 and C1 controls (NUL, ESC, CSI…): a terminal or a chat client acts on them. Tab is allowed. */
const OTHER_CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/;

const codePoints = (text: string, pattern: RegExp) =>
  [...new Set([...text].filter((c) => pattern.test(c)).map((c) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`))].join(' ');

/** Whatever, inside one line, breaks it, reorders it or drives a terminal. */
export function lineFailures(line: string): Failure[] {
  const failures: Failure[] = [];
  if (LINE_BREAK.test(line)) failures.push({ check: 'text line holds a line break', detail: `${codePoints(line, LINE_BREAK)} in ${JSON.stringify(line.slice(0, 200))}` });
  if (BIDI_CONTROL.test(line)) failures.push({ check: 'text line holds a bidi control', detail: `${codePoints(line, BIDI_CONTROL)} in ${JSON.stringify(line.slice(0, 200))}` });
  if (OTHER_CONTROL.test(line)) failures.push({ check: 'text line holds a control character', detail: `${codePoints(line, OTHER_CONTROL)} in ${JSON.stringify(line.slice(0, 200))}` });
  return failures;
}

export interface ExpectedLine {
  seq: number;
  actor: string;
  type: string;
  /** The first 8 hex digits of the commit's hash, when known. */
  hash8?: string;
}

/**
 * A text answer against the commits it stands for: exactly one "\n"-ended line per commit,
 * each `#<seq> <actor> <type>[ <summary>] [<hash8>]`, and nothing inside a line that breaks it.
 */
export function checkTextLines(text: string, expected: readonly ExpectedLine[]): Failure[] {
  const failures: Failure[] = [];
  if (expected.length === 0) {
    if (text !== '') failures.push({ check: 'text answer is not one line per commit', detail: `no commit, but ${JSON.stringify(text.slice(0, 200))}` });
    return failures;
  }
  if (!text.endsWith('\n')) failures.push({ check: 'text answer is not one line per commit', detail: `does not end with a line feed: ${JSON.stringify(text.slice(-100))}` });
  const lines = text.split('\n').slice(0, -1);
  if (lines.length !== expected.length) {
    failures.push({ check: 'text answer is not one line per commit', detail: `${lines.length} lines for ${expected.length} commits: ${JSON.stringify(text.slice(0, 300))}` });
  }
  // Lines are matched to commits in order; after a broken line the rest are shifted, so stop at the first mismatch.
  for (let i = 0; i < Math.min(lines.length, expected.length); i++) {
    const line = lines[i];
    const want = expected[i];
    const head = `#${want.seq} ${want.actor} ${want.type}`;
    const tail = want.hash8 ? ` [${want.hash8}]` : undefined;
    const shaped = (line === `${head}${tail ?? ''}` || line.startsWith(`${head} `)) && (tail ? line.endsWith(tail) : /\s\[[0-9a-f]{8}\]$/.test(line));
    if (!shaped) {
      failures.push({ check: 'text line does not stand for its commit', detail: `expected "${head} … ${tail ?? '[hash]'}", got ${JSON.stringify(line.slice(0, 200))}` });
      break;
    }
    failures.push(...lineFailures(line));
  }
  return failures;
}
