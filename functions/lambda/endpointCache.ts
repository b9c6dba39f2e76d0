/**
 * Bundled in place of `@aws-sdk/endpoint-cache` (the alias in infra/bundling.ts), with its
 * behaviour: the DynamoDB client builds one for endpoint discovery, which is off unless a
 * client asks for it (none does), yet the package brings an LRU library (mnemonist, 7 KB of
 * every function's cold start). A Map in insertion order evicts the oldest key instead.
 */
interface Endpoint {
  Address: string;
  Expires: number;
}

export class EndpointCache {
  private readonly cache = new Map<string, Endpoint[]>();

  constructor(private readonly capacity: number) {}

  getEndpoint(key: string): string | undefined {
    const endpoints = this.get(key);
    if (!endpoints || endpoints.length === 0) return undefined;
    return endpoints[Math.floor(Math.random() * endpoints.length)].Address;
  }

  get(key: string): Endpoint[] | undefined {
    if (!this.has(key)) return undefined;
    const value = this.cache.get(key)!;
    // Read: now the most recently used.
    this.cache.delete(key);
    this.cache.set(key, value);
    const now = Date.now();
    const live = value.filter((endpoint) => now < endpoint.Expires);
    if (live.length === 0) {
      this.delete(key);
      return undefined;
    }
    return live;
  }

  set(key: string, endpoints: { Address?: string; CachePeriodInMinutes?: number }[]): void {
    const now = Date.now();
    this.cache.delete(key);
    this.cache.set(key, endpoints.map(({ Address, CachePeriodInMinutes }) => ({ Address: Address ?? '', Expires: now + (CachePeriodInMinutes ?? 0) * 60 * 1000 })));
    while (this.cache.size > Math.max(1, this.capacity)) this.cache.delete(this.cache.keys().next().value!);
  }

  delete(key: string): void {
    this.cache.set(key, []);
  }

  has(key: string): boolean {
    return (this.cache.get(key)?.length ?? 0) > 0;
  }

  clear(): void {
    this.cache.clear();
  }
}
