// Byte encodings on Uint8Array alone, so that the verifier runs unchanged in browsers.

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));
const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const utf8 = new TextEncoder();
const valuesOf = (alphabet: string) => {
  const values = new Int8Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) values[alphabet.charCodeAt(i)] = i;
  return values;
};
const HEX_VALUES = valuesOf('0123456789abcdef');
const STANDARD_VALUES = valuesOf(STANDARD);
const URL_SAFE_VALUES = valuesOf(URL_SAFE);

export function utf8Of(text: string): Uint8Array {
  return utf8.encode(text);
}

/** Lowercase hex, two digits a byte. */
export function hexOf(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i++) text += HEX[bytes[i]];
  return text;
}

/** The bytes of lowercase hex, or undefined for anything hexOf would not write. */
export function bytesOfHex(hex: string): Uint8Array | undefined {
  if (hex.length % 2 !== 0) return undefined;
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) {
    const high = valueOf(HEX_VALUES, hex.charCodeAt(2 * i));
    const low = valueOf(HEX_VALUES, hex.charCodeAt(2 * i + 1));
    if (high < 0 || low < 0) return undefined;
    bytes[i] = (high << 4) | low;
  }
  return bytes;
}

/** Standard base64 (RFC 4648 §4), padded with `=`. */
export function base64Of(bytes: Uint8Array): string {
  return encode(bytes, STANDARD, true);
}

/** base64url (RFC 4648 §5), unpadded. */
export function base64urlOf(bytes: Uint8Array): string {
  return encode(bytes, URL_SAFE, false);
}

/**
 * The bytes of standard base64 written the one canonical way (padded, unused bits
 * zero), or undefined: another spelling of the same bytes could be flipped unnoticed.
 */
export function bytesOfBase64(text: string): Uint8Array | undefined {
  return decodeCanonical(text, STANDARD, STANDARD_VALUES, true);
}

/** The bytes of unpadded base64url written the one canonical way, or undefined. */
export function bytesOfBase64url(text: string): Uint8Array | undefined {
  return decodeCanonical(text, URL_SAFE, URL_SAFE_VALUES, false);
}

function encode(bytes: Uint8Array, alphabet: string, pad: boolean): string {
  let text = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    text += alphabet[n >> 18] + alphabet[(n >> 12) & 63] + alphabet[(n >> 6) & 63] + alphabet[n & 63];
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i] << 16;
    text += alphabet[n >> 18] + alphabet[(n >> 12) & 63] + (pad ? '==' : '');
  } else if (rest === 2) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
    text += alphabet[n >> 18] + alphabet[(n >> 12) & 63] + alphabet[(n >> 6) & 63] + (pad ? '=' : '');
  }
  return text;
}

const valueOf = (values: Int8Array, code: number) => (code < 128 ? values[code] : -1);

function decodeCanonical(text: string, alphabet: string, values: Int8Array, padded: boolean): Uint8Array | undefined {
  const body = padded ? text.replace(/={1,2}$/, '') : text;
  if (padded ? text.length % 4 !== 0 : body.length % 4 === 1) return undefined;
  const bytes = new Uint8Array(Math.floor((body.length * 3) / 4));
  let bits = 0;
  let buffered = 0;
  let at = 0;
  for (let i = 0; i < body.length; i++) {
    const value = valueOf(values, body.charCodeAt(i));
    if (value < 0) return undefined;
    buffered = ((buffered << 6) | value) & 0xffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[at++] = (buffered >> bits) & 0xff;
    }
  }
  // Re-encoding catches the rest: non-zero unused bits, wrong padding.
  return encode(bytes, alphabet, padded) === text ? bytes : undefined;
}
