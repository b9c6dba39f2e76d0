import { UNSAFE_TEXT_CHARACTERS } from '../playerText';

const ESCAPED = new RegExp(`[\\\\${UNSAFE_TEXT_CHARACTERS}]`, 'g');
const SHORT_ESCAPES = new Map([
  ['\\', '\\\\'],
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
]);

/**
 * Escapes a line so that it stays one line and reads left to right whatever a player
 * typed: a line feed, carriage return or tab becomes `\n`, `\r`, `\t`; any other character
 * that could break or reorder a line (UNSAFE_TEXT_CHARACTERS) becomes `\uXXXX`; and a
 * backslash becomes `\\`, so that every escape is unambiguous: `\n` always stands for a
 * line feed, while the two characters `\` `n` read `\\n`. Unescaping gives back the exact
 * text (a summary's JSON-quoted purpose keeps its own JSON escapes inside).
 */
export function escapeLine(text: string): string {
  return text.replace(ESCAPED, (c) => SHORT_ESCAPES.get(c) ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
