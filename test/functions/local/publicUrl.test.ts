import { describe, expect, it } from 'vitest';
import { isWildcardHost, publicUrlOf, reachableUrl } from '../../../functions/local/publicUrl';

describe('ARBITER_PUBLIC_URL', () => {
  it('takes an http or https origin, with or without a port or a final slash', () => {
    expect(publicUrlOf('https://arbiter.example.org')).toBe('https://arbiter.example.org');
    expect(publicUrlOf('https://Arbiter.Example.org/')).toBe('https://arbiter.example.org');
    expect(publicUrlOf('http://192.168.1.20:8787')).toBe('http://192.168.1.20:8787');
    expect(publicUrlOf('http://[fd00::20]:8787/')).toBe('http://[fd00::20]:8787');
    expect(publicUrlOf(undefined)).toBeUndefined();
    expect(publicUrlOf('')).toBeUndefined();
  });

  it('refuses anything else, saying what it takes', () => {
    for (const value of ['arbiter.example.org', 'ftp://arbiter.example.org', 'https://arbiter.example.org/games', 'https://arbiter.example.org/?a=1', 'https://arbiter.example.org/#top', 'https://user:pass@arbiter.example.org', 'javascript:alert(1)']) {
      expect(() => publicUrlOf(value), value).toThrow(`ARBITER_PUBLIC_URL must be an http or https origin such as https://arbiter.example.org or http://192.168.1.20:8787, not ${JSON.stringify(value)}`);
    }
    for (const value of ['http://0.0.0.0:8787', 'http://[::]:8787']) expect(() => publicUrlOf(value), value).toThrow('ARBITER_PUBLIC_URL names 0.0.0.0 or ::, which no one can reach');
  });
});

describe('the address a wildcard bind is reached at', () => {
  it('is loopback, never 0.0.0.0 or ::', () => {
    expect(reachableUrl('0.0.0.0', 8787)).toBe('http://127.0.0.1:8787');
    expect(reachableUrl('::', 8787)).toBe('http://[::1]:8787');
    expect(reachableUrl('127.0.0.1', 8787)).toBe('http://127.0.0.1:8787');
    expect(reachableUrl('::1', 8787)).toBe('http://[::1]:8787');
    expect(['0.0.0.0', '::', '[::]'].every(isWildcardHost)).toBe(true);
    expect(isWildcardHost('127.0.0.1')).toBe(false);
  });
});
