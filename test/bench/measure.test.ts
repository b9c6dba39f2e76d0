import { describe, expect, it } from 'vitest';
import { combined, percentile, type LoadResult } from '../../bench/measure';

const run = (latencies: number[], seconds: number): LoadResult => {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { perSecond: latencies.length / seconds, p50: percentile(sorted, 50), p99: percentile(sorted, 99), count: latencies.length, seconds, latencies: sorted };
};

describe('combined rounds of a bench load', () => {
  it('is their commands over their summed time, not the mean of their rates', () => {
    // 100 commands in 1 s, then 100 in 3 s: 200 in 4 s is 50/s (the mean of the rates would say 66.7).
    const both = combined([run(Array(100).fill(1), 1), run(Array(100).fill(1), 3)]);
    expect(both.count).toBe(200);
    expect(both.seconds).toBe(4);
    expect(both.perSecond).toBe(50);
  });

  it('takes its percentiles over every latency of every round', () => {
    // One round all fast, one all slow: the median falls in the slow half's first value, the p99 among the slow.
    const fast = Array.from({ length: 50 }, (_, i) => 1 + i / 100);
    const slow = Array.from({ length: 50 }, (_, i) => 10 + i / 100);
    const both = combined([run(slow, 1), run(fast, 1)]);
    expect(both.latencies).toEqual([...fast, ...slow]);
    expect(both.p50).toBe(10);
    expect(both.p99).toBe(10.49);
  });
});
