import { isIPv4, isIPv6 } from 'node:net';

/**
 * Who a creation is counted against, from the address the connection came from (never a
 * header a client writes). Addresses one client holds many of count as one:
 * - every loopback address (127.0.0.0/8, ::1, ::ffff:127.x.y.z) is this machine: `loopback`;
 * - an IPv4 address written as IPv6 (::ffff:a.b.c.d, as a dual-stack socket reports it) is the IPv4 address;
 * - an IPv6 address counts by its /64, the block one subscriber is routed.
 */
export function quotaClientOf(address: string | undefined): string {
  const text = (address ?? '').trim();
  if (text === '') return 'unknown';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(text);
  const v4 = mapped ? mapped[1] : text;
  if (isIPv4(v4)) return v4.startsWith('127.') ? 'loopback' : v4;
  const bare = text.split('%')[0].toLowerCase();
  const groups = isIPv6(bare) ? ipv6Groups(bare) : undefined;
  if (!groups) return text;
  if (groups.every((g, i) => g === (i === 7 ? 1 : 0))) return 'loopback';
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (an IPv4 tail becomes the last two). */
function ipv6Groups(address: string): number[] | undefined {
  let text = address;
  const tail = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1].split('.').map(Number);
    text = `${text.slice(0, -tail[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::');
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(rest);
  const groups = rest === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}
