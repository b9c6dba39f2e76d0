import { describe, expect, it } from 'vitest';
import { exportSource } from '../../verifier/exportSource';
import { UsageError } from '../../verifier/parseArguments';

const url = (source: string, token?: string) => {
  const resolved = exportSource(source, token);
  if (resolved.kind !== 'url') throw new Error('not a URL');
  return { href: resolved.url.href, token: resolved.token, shown: resolved.shown };
};

describe('exportSource: where verify and export read from', () => {
  it("reads a web app link's export from the link's origin, with the fragment's token, shown without it", () => {
    expect(url('https://arbiter.example.org/#/games/g-1x?token=arb_abc', 'from-flag')).toEqual({
      href: 'https://arbiter.example.org/games/g-1x/export',
      token: 'arb_abc',
      shown: 'https://arbiter.example.org/#/games/g-1x',
    });
    expect(url('https://arbiter.example.org/#/tournaments/t-9?token=arb_t').href).toBe('https://arbiter.example.org/tournaments/t-9/export');
    expect(url('https://arbiter.example.org/#/verify?game=g-2&token=arb_v')).toMatchObject({ href: 'https://arbiter.example.org/games/g-2/export', token: 'arb_v' });
    expect(url('https://arbiter.example.org/#/games/g-3', 'from-flag').token).toBe('from-flag');
  });

  it('moves a token out of an API URL into the header, and leaves no fragment', () => {
    expect(url('http://127.0.0.1:8787/games/g-1?token=arb_q#x')).toEqual({ href: 'http://127.0.0.1:8787/games/g-1/export', token: 'arb_q', shown: 'http://127.0.0.1:8787/games/g-1/export' });
    expect(url('http://127.0.0.1:8787/games/g-1/export', 'arb_f')).toMatchObject({ href: 'http://127.0.0.1:8787/games/g-1/export', token: 'arb_f' });
  });

  it("refuses a link to another page of the web app, or to no game, without repeating the link's token", () => {
    for (const link of ['https://a.example/#/organize?token=arb_secret', 'https://a.example/#/games/..?token=arb_secret', 'https://a.example/#/verify?token=arb_secret']) {
      let thrown: unknown;
      try {
        exportSource(link, undefined);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, link).toBeInstanceOf(UsageError);
      expect((thrown as Error).message).not.toContain('arb_secret');
    }
  });

  it('names a file without the value of a token its name may hold', () => {
    expect(exportSource('game-token=arb_x.json', undefined)).toEqual({ kind: 'file', path: 'game-token=arb_x.json', shown: '"game-token=…"' });
  });

  it("reads the verify page's tournament link too", () => {
    expect(url('https://arbiter.example.org/#/verify?tournament=t-7&token=arb_t')).toMatchObject({ href: 'https://arbiter.example.org/tournaments/t-7/export', token: 'arb_t' });
  });

  it('refuses a link whose id could point the token at another path: .., %2e%2e, an encoded slash', () => {
    for (const id of ['..', '%2e%2e', '%2E%2E', 'g-1%2Fx', 'g-1%3Fx']) {
      expect(() => exportSource(`https://arbiter.example.org/#/games/${id}?token=SECRET`, undefined), id).toThrow(UsageError);
      try {
        exportSource(`https://arbiter.example.org/#/games/${id}?token=SECRET`, undefined);
      } catch (error) {
        expect((error as Error).message).not.toContain('SECRET');
      }
    }
    expect(() => exportSource('https://arbiter.example.org/#/verify?game=..&token=SECRET', undefined)).toThrow(UsageError);
  });
});
