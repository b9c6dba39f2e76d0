import { UNSAFE_TEXT_CHARACTERS } from '../../../domain/playerText';
import { DeliveryError } from '../channel';

const UNSAFE = new RegExp(`[${UNSAFE_TEXT_CHARACTERS}]+`, 'g');

/**
 * Text of a game (a title, a purpose, a text line) as one line: every control character, line
 * break and text-direction control becomes a space, so no header or line can be added by it.
 */
export function oneLine(text: string, max = 200): string {
  const line = text.replace(UNSAFE, ' ').replace(/ {2,}/g, ' ').trim();
  if (line.length <= max) return line;
  // Cut before a character, never inside one written as two UTF-16 units (an emoji).
  const cut = /[\uD800-\uDBFF]/.test(line[max - 2]!) ? max - 2 : max - 1;
  return `${line.slice(0, cut)}…`;
}

// One address, name@domain, without a display name, comments, a list or anything to fold.
const PLAIN_ADDRESS = /^[^\s@<>()[\]\\,;:"\u0000-\u001f\u007f]{1,64}@[A-Za-z0-9.-]{1,253}$/;

export function isPlainAddress(address: string): boolean {
  return PLAIN_ADDRESS.test(address) && !address.endsWith('.');
}

/** The recipient, refused (for good: trying again would not help) when it is not one plain address. */
export function recipientOf(address: string | undefined): string {
  if (address === undefined || !isPlainAddress(address)) throw new DeliveryError(false, 'the subscription has no valid e-mail address');
  return address;
}

/** The domain of the From address, for Message-IDs and List-Ids; `arbiter.localhost` when it has none. */
export function domainOf(from: string): string {
  const match = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from);
  return match?.[1]?.toLowerCase() ?? 'arbiter.localhost';
}

/** A Message-ID from the delivery's messageId: a retry of the same delivery carries the same one, and mail clients show it once. */
export function messageIdHeader(messageId: string, from: string): string {
  return `<${messageId.replace(/[^A-Za-z0-9._-]/g, '-')}@${domainOf(from)}>`;
}

/** A link as it may stand in a header or a mail: http(s) only, one line (URL-encoded), `undefined` when it is not one. */
export function cleanLink(link: string | undefined): string | undefined {
  if (link === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  if (url.username || url.password) return undefined;
  return url.href;
}

/**
 * The timeline link without any token: a mail may be forwarded, kept or read by others, and
 * a token gives a side's or the organizer's rights (the web app keeps them in the fragment,
 * `#/games/<id>?token=…`). What is left opens the game's public timeline.
 */
export function linkWithoutToken(link: string | undefined): string | undefined {
  const clean = cleanLink(link);
  if (clean === undefined) return undefined;
  const url = new URL(clean);
  url.searchParams.delete('token');
  const hash = url.hash;
  const query = hash.indexOf('?');
  if (query >= 0) {
    const parameters = new URLSearchParams(hash.slice(query + 1));
    parameters.delete('token');
    const rest = parameters.toString();
    url.hash = hash.slice(0, query) + (rest ? `?${rest}` : '');
  }
  return url.href;
}
