/**
 * Characters that could forge or disguise an output line: control characters
 * (newline, carriage return, escape sequences), Unicode line and paragraph
 * separators, bidirectional overrides, and lone surrogates.
 */
const UNSAFE = /[\p{Cc}\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069\p{Cs}]/gu;

/** One output line with every unsafe character written as \uXXXX, so a file cannot add lines. */
export function printable(line: string): string {
  return line.replace(UNSAFE, escapeChar);
}

/**
 * JSON text made safe to print: the same escapes, except for the whitespace JSON
 * allows between tokens (raw control characters are never valid inside JSON strings,
 * so escaping the rest keeps the text's meaning).
 */
export function printableJson(text: string): string {
  return text.replace(UNSAFE, (ch) => (ch === '\n' || ch === '\t' ? ch : escapeChar(ch)));
}

function escapeChar(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
