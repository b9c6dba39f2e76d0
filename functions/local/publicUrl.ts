import { isWildcardHost } from '../config/publicUrl';

// The check of ARBITER_PUBLIC_URL is a setting's (functions/config/): the Lambdas read settings too, never functions/local.
export { isWildcardHost, publicUrlOf } from '../config/publicUrl';

/** The URL this process can be reached at on this machine: a wildcard bind is reached on loopback. */
export function reachableUrl(address: string, port: number): string {
  const bare = address === '0.0.0.0' ? '127.0.0.1' : isWildcardHost(address) ? '::1' : address;
  return `http://${bare.includes(':') ? `[${bare}]` : bare}:${port}`;
}
