import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64Of, base64urlOf, bytesOfBase64, bytesOfBase64url, bytesOfHex, hexOf, utf8Of } from '../../../domain/crypto/encoding';

// Node's Buffer is the reference the codecs replace: same text out, same bytes in,
// and the same spellings refused as the old Buffer round-trip checks refused.
const bytes = fc.uint8Array({ maxLength: 100 });
/** Base64-ish text: the characters of both alphabets, padding and a few strays. */
const base64ish = fc.string({ unit: fc.constantFrom(...'AQgw/+_-=Az09 .\n'), maxLength: 24 });
/** The canonical text of some bytes, with one character changed. */
const mutated = (encode: (b: Uint8Array) => string) =>
  fc.tuple(bytes, fc.nat(), fc.constantFrom(...'AQgw/+_-=')).map(([b, at, c]) => {
    const text = encode(b);
    const i = text.length ? at % text.length : 0;
    return text.slice(0, i) + c + text.slice(i + 1);
  });

describe('hex', () => {
  it('writes what Buffer writes, and reads it back', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        const hex = hexOf(b);
        expect(hex).toBe(Buffer.from(b).toString('hex'));
        expect(bytesOfHex(hex)).toEqual(b);
      }),
    );
  });

  it('refuses odd lengths, uppercase and other characters', () => {
    for (const text of ['a', 'abc', 'AB', '0g', ' 00', '00\n']) expect(bytesOfHex(text)).toBeUndefined();
    expect(bytesOfHex('')).toEqual(new Uint8Array(0));
  });
});

describe('base64 (standard, padded)', () => {
  it('writes what Buffer writes, and reads it back', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        const text = base64Of(b);
        expect(text).toBe(Buffer.from(b).toString('base64'));
        expect(bytesOfBase64(text)).toEqual(b);
      }),
    );
  });

  it('reads exactly the texts that survive a Buffer round trip', () => {
    fc.assert(
      fc.property(fc.oneof(base64ish, mutated(base64Of)), (text) => {
        const canonical = Buffer.from(text, 'base64').toString('base64') === text;
        expect(bytesOfBase64(text)).toEqual(canonical ? new Uint8Array(Buffer.from(text, 'base64')) : undefined);
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses unused bits, missing padding and the url alphabet', () => {
    expect(bytesOfBase64('AQ==')).toEqual(Uint8Array.of(1));
    for (const text of ['AR==', 'AQ', 'AQ=', 'AQ===', '-_8=', 'A===', '====']) expect(bytesOfBase64(text)).toBeUndefined();
  });
});

describe('base64url (unpadded)', () => {
  it('writes what Buffer writes, and reads it back', () => {
    fc.assert(
      fc.property(bytes, (b) => {
        const text = base64urlOf(b);
        expect(text).toBe(Buffer.from(b).toString('base64url'));
        expect(bytesOfBase64url(text)).toEqual(b);
      }),
    );
  });

  it('reads exactly the texts that survive a Buffer round trip', () => {
    fc.assert(
      fc.property(fc.oneof(base64ish, mutated(base64urlOf)), (text) => {
        const canonical = Buffer.from(text, 'base64url').toString('base64url') === text;
        expect(bytesOfBase64url(text)).toEqual(canonical ? new Uint8Array(Buffer.from(text, 'base64url')) : undefined);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('UTF-8', () => {
  it('encodes as Buffer does, a lone surrogate as U+FFFD', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        expect(utf8Of(text)).toEqual(new Uint8Array(Buffer.from(text, 'utf8')));
      }),
    );
    expect(utf8Of('a\uD800b')).toEqual(new Uint8Array(Buffer.from('a\uD800b', 'utf8')));
  });
});
