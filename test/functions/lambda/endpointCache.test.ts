import { EndpointCache as SdkEndpointCache } from '@aws-sdk/endpoint-cache';
import { describe, expect, it } from 'vitest';
import { EndpointCache } from '../../../functions/lambda/endpointCache';

/** The same calls on a cache, and what each answered. */
function script(cache: EndpointCache | SdkEndpointCache): unknown[] {
  const seen: unknown[] = [];
  cache.set('a', [{ Address: 'a.example', CachePeriodInMinutes: 1 }]);
  cache.set('b', [{ Address: 'b.example', CachePeriodInMinutes: 0 }]);
  seen.push(cache.getEndpoint('a'), cache.get('b'), cache.has('b'));
  cache.set('c', [{ Address: 'c.example', CachePeriodInMinutes: 1 }]);
  seen.push(cache.has('a'), cache.has('b'), cache.has('c'));
  cache.get('c');
  cache.set('d', [{ Address: 'd.example', CachePeriodInMinutes: 1 }]);
  seen.push(cache.has('a'), cache.has('b'), cache.has('c'), cache.has('d'), cache.getEndpoint('d'));
  cache.delete('d');
  seen.push(cache.getEndpoint('d'), cache.has('c'));
  cache.clear();
  seen.push(cache.has('c'));
  return seen;
}

describe('the endpoint cache bundled in place of @aws-sdk/endpoint-cache', () => {
  it("answers as the SDK's own: endpoints until they expire, none once deleted, the least recently used evicted past its capacity", () => {
    const sdk = script(new SdkEndpointCache(2));
    expect(script(new EndpointCache(2))).toEqual(sdk);
    // What the script shows: an expired entry is gone, an evicted one too, and the last set is there.
    expect(sdk).toEqual(['a.example', undefined, false, false, false, true, false, false, true, true, 'd.example', undefined, true, false]);
  });
});
