import * as z from 'zod';

/**
 * Characters that can break a line of text or disguise it, as the body of a regular
 * expression's character class: C0 controls (tab and line feed included), DEL and C1
 * controls (NEL included), the line and paragraph separators U+2028 and U+2029, and every
 * bidi control (Unicode's Bidi_Control set): the marks U+061C, U+200E, U+200F, the
 * embeddings and overrides U+202A–U+202E and the isolates U+2066–U+2069.
 */
export const UNSAFE_TEXT_CHARACTERS = '\\u0000-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';

const SAFE_TEXT = new RegExp(`^[^${UNSAFE_TEXT_CHARACTERS}]*$`);
// Something visible: not only white space (what String.prototype.trim removes), format
// characters (zero-width space and joiners, soft hyphen) or letters that print as
// nothing (braille blank, Hangul fillers). The empty string passes here, to get the one
// message of min(1).
const NOT_BLANK = /^(?![\s\p{Cf}\u2800\u3164\u115f\u1160\uffa0]+$)/u;

/** Text a player chose (a purpose, a modifier's source): one printable line, not blank, at most `max` characters. */
export function playerText(max: number) {
  return z
    .string()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`)
    .regex(NOT_BLANK, 'must not be blank')
    .regex(SAFE_TEXT, 'must not contain control characters, line breaks or text-direction controls');
}

/** An id a player chose for a unit, an HQ, a combat or an attack: 1 to 64 characters of printable text. */
export const playerId = playerText(64);
