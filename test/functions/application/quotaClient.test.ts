import { describe, expect, it } from 'vitest';
import { quotaClientOf } from '../../../functions/application/quotaClient';

describe('who a creation counts against', () => {
  it('is one client for every loopback address, IPv4 or IPv6', () => {
    for (const address of ['127.0.0.1', '127.0.0.2', '127.255.1.9', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', '::FFFF:127.9.9.9']) expect(quotaClientOf(address), address).toBe('loopback');
  });

  it('is the IPv4 address, however the socket writes it', () => {
    expect(quotaClientOf('203.0.113.7')).toBe('203.0.113.7');
    expect(quotaClientOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(quotaClientOf('198.51.100.1')).not.toBe(quotaClientOf('198.51.100.2'));
  });

  it('is the /64 of an IPv6 address, so one subscriber cannot walk its block', () => {
    const block = quotaClientOf('2001:db8:1:2::1');
    expect(block).toBe('2001:db8:1:2::/64');
    for (const address of ['2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:0:0:0:9', '2001:db8:1:2::5%eth0', '2001:db8:1:2::198.51.100.1']) expect(quotaClientOf(address), address).toBe(block);
    expect(quotaClientOf('2001:db8:1:3::1')).not.toBe(block);
  });

  it('is "unknown" without an address, and anything else as it is', () => {
    expect([quotaClientOf(undefined), quotaClientOf(''), quotaClientOf('tournament:t-AbC')]).toEqual(['unknown', 'unknown', 'tournament:t-AbC']);
  });
});
