/**
 * ARBITER_PUBLIC_URL: the origin people reach this server at (a proxy's `https://arbiter.example.org`,
 * or the machine's own address when it listens on 0.0.0.0). Links the server hands out use it.
 * An http(s) origin and nothing else: no path, query, fragment or credentials.
 */
export function publicUrlOf(value: string | undefined, name = 'ARBITER_PUBLIC_URL'): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const problem = `${name} must be an http or https origin such as https://arbiter.example.org or http://192.168.1.20:8787, not ${JSON.stringify(value)}`;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(problem);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(problem);
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash || value.trim().includes('?') || value.trim().includes('#')) throw new Error(problem);
  if (isWildcardHost(url.hostname)) throw new Error(`${name} names 0.0.0.0 or ::, which no one can reach: give the address or name people use`);
  return url.origin;
}

/** An address that means "every interface": fine to listen on, never an address to hand out. */
export function isWildcardHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === '0.0.0.0' || bare === '::' || bare === '0:0:0:0:0:0:0:0';
}
