import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP } from 'node:net';
import { DeliveryError } from './channel';

/** docs/notifications.md "Limits". */
export const TARGET_LIMITS = { redirects: 3, requestBytes: 64 * 1024, answerBytes: 16 * 1024, timeoutMs: 10_000 } as const;

export interface TargetPolicy {
  /** ARBITER_NOTIFY_ALLOW_LOOPBACK=1: http to loopback, and loopback addresses, are allowed (local use, tests). */
  allowLoopback: boolean;
  /** Resolves a host name to its addresses; DNS by default. */
  resolve?: (host: string) => Promise<string[]>;
  timeoutMs?: number;
}

const never = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) never.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2002::', 16],
] as const) never.addSubnet(net, bits, 'ipv6');
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** `::ffff:10.0.0.1` and `::ffff:a00:1` are 10.0.0.1: checked as IPv4. */
function embeddedIpv4(address: string): string | undefined {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return undefined;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Why a notification may not go to this address, or undefined when it may. */
export function refusedAddress(address: string, allowLoopback: boolean): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 0) return `${JSON.stringify(address)} is not an IP address`;
  const v4 = family === 6 ? embeddedIpv4(bare.toLowerCase()) : bare;
  const [checked, type] = v4 ? [v4, 'ipv4' as const] : [bare, 'ipv6' as const];
  if (loopback.check(checked, type)) return allowLoopback ? undefined : 'a loopback address (allowed only with ARBITER_NOTIFY_ALLOW_LOOPBACK=1)';
  if (never.check(checked, type)) return 'a private, link-local, unique-local, multicast, reserved or unspecified address';
  return undefined;
}

const isLoopbackHost = (host: string) => host === 'localhost' || (isIP(host.replace(/^\[|\]$/g, '')) !== 0 && loopback.check(host.replace(/^\[|\]$/g, ''), isIP(host.replace(/^\[|\]$/g, '')) === 4 ? 'ipv4' : 'ipv6'));

/** Why this URL may not be a target, as a subscriber reads it; undefined when it may (its addresses are checked when it is used). */
export function refusedUrl(text: string, allowLoopback: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not a URL';
  }
  if (url.username || url.password) return 'may not carry a user name or password';
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(literal) !== 0 && !loopback.check(literal, isIP(literal) === 4 ? 'ipv4' : 'ipv6')) {
    const refused = refusedAddress(literal, allowLoopback);
    if (refused) return `may not name ${refused}`;
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:') {
    if (!isLoopbackHost(url.hostname)) return 'must be https';
    return allowLoopback ? undefined : 'must be https (http to this machine only with ARBITER_NOTIFY_ALLOW_LOOPBACK=1)';
  }
  return 'must be https';
}

export interface PostAnswer {
  status: number;
  body: string;
}

/** The URL as the organizer may see it in a reason: its origin and no path (a Discord or Slack path is a secret). */
export const originOf = (url: URL | string) => new URL(url).origin;

/** The lookup, raced against what is left of the 10 s: a name server that never answers fails the delivery in time. */
function resolvedInTime(lookup: Promise<string[]>, url: URL, deadline: number): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeliveryError(true, `${originOf(url)}: its name did not resolve in time`)), Math.max(1, deadline - Date.now()));
  });
  return Promise.race([lookup, late]).finally(() => clearTimeout(timer));
}

async function checkedAddress(url: URL, policy: TargetPolicy, deadline: number): Promise<{ address: string; family: 4 | 6 }> {
  const refused = refusedUrl(url.href, policy.allowLoopback);
  if (refused) throw new DeliveryError(false, `${originOf(url)} ${refused}`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const resolve = policy.resolve ?? (async (name: string) => (await dnsLookup(name, { all: true, verbatim: true })).map((found) => found.address));
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : await resolvedInTime(resolve(host), url, deadline);
  } catch (error) {
    if (error instanceof DeliveryError) throw error;
    throw new DeliveryError(true, `${originOf(url)}: its name does not resolve`);
  }
  if (addresses.length === 0) throw new DeliveryError(true, `${originOf(url)}: its name does not resolve`);
  // Every address the name has must be allowed: a name that also points inside is refused, whichever would be used.
  for (const address of addresses) {
    const why = refusedAddress(address, policy.allowLoopback);
    if (why) throw new DeliveryError(false, `${originOf(url)} resolves to ${why}`);
  }
  const address = addresses[0]!;
  return { address, family: isIP(address) === 6 ? 6 : 4 };
}

function postOnce(url: URL, pinned: { address: string; family: 4 | 6 }, body: string, headers: Record<string, string>, deadline: number): Promise<{ status: number; location?: string; body: string }> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const remaining = Math.max(1, deadline - Date.now());
    const request = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'Arbiter-Notifications/1' },
        // The connection goes to the address checked: no second lookup a name's owner could answer differently.
        lookup: (_host, options, callback) => {
          if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [pinned]);
          else callback(null, pinned.address, pinned.family);
        },
        timeout: remaining,
      },
      (answer: IncomingMessage) => {
        const chunks: Buffer[] = [];
        let size = 0;
        answer.on('data', (chunk: Buffer) => {
          if (size >= TARGET_LIMITS.answerBytes) return;
          chunks.push(chunk);
          size += chunk.length;
          // The answer's first 16 KB are all it is read for.
          if (size >= TARGET_LIMITS.answerBytes) answer.destroy();
        });
        const done = () => resolve({ status: answer.statusCode ?? 0, location: answer.headers.location, body: Buffer.concat(chunks).subarray(0, TARGET_LIMITS.answerBytes).toString('utf8') });
        answer.on('end', done);
        answer.on('close', done);
        answer.on('error', done);
      },
    );
    const timer = setTimeout(() => request.destroy(new DeliveryError(true, `${originOf(url)} did not answer within ${Math.round(remaining / 1000)} s`)), remaining);
    request.on('timeout', () => request.destroy(new DeliveryError(true, `${originOf(url)} did not answer in time`)));
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error instanceof DeliveryError ? error : new DeliveryError(true, `${originOf(url)}: ${(error as NodeJS.ErrnoException).code ?? 'connection failed'}`));
    });
    request.on('close', () => clearTimeout(timer));
    request.end(body);
  });
}

/**
 * POSTs a JSON body to a subscriber's URL, checked as docs/notifications.md "Limits" says: https (or http to
 * loopback when allowed), every resolved address public, the connection pinned to the address
 * checked, at most 3 redirects (each checked again, the same body posted again), a body of at
 * most 64 KB, the answer read up to 16 KB, 10 s in all. A 2xx answer is delivered; 408, 429
 * and 5xx, no answer or a timeout may be retried; any other answer may not.
 */
export async function postJson(target: string, body: string, headers: Record<string, string>, policy: TargetPolicy): Promise<PostAnswer> {
  if (Buffer.byteLength(body) > TARGET_LIMITS.requestBytes) throw new DeliveryError(false, `the notification is larger than ${TARGET_LIMITS.requestBytes / 1024} KB`);
  const deadline = Date.now() + (policy.timeoutMs ?? TARGET_LIMITS.timeoutMs);
  let url = new URL(target);
  for (let hop = 0; ; hop++) {
    const answer = await postOnce(url, await checkedAddress(url, policy, deadline), body, headers, deadline);
    if (answer.status >= 300 && answer.status < 400 && answer.location) {
      if (hop >= TARGET_LIMITS.redirects) throw new DeliveryError(false, `${originOf(url)}: more than ${TARGET_LIMITS.redirects} redirects`);
      url = new URL(answer.location, url);
      continue;
    }
    if (answer.status >= 200 && answer.status < 300) return { status: answer.status, body: answer.body };
    const retryable = answer.status === 408 || answer.status === 429 || answer.status >= 500;
    throw new DeliveryError(retryable, `${originOf(url)} answered ${answer.status}`);
  }
}
