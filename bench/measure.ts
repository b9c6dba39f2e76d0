import { performance } from 'node:perf_hooks';

/** Calls `fn` in batches for about `seconds`; operations per second. Bounded by time and count. */
export function rate(fn: () => void, seconds = 1, batch = 100, maxOps = 50_000_000): number {
  const end = performance.now() + seconds * 1000;
  let ops = 0;
  const start = performance.now();
  while (performance.now() < end && ops < maxOps) {
    for (let i = 0; i < batch; i++) fn();
    ops += batch;
  }
  return ops / ((performance.now() - start) / 1000);
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `total` async tasks with `concurrency` in flight; their latencies in ms and the rate. */
export async function load(total: number, concurrency: number, task: (i: number) => Promise<void>) {
  const latencies: number[] = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        await task(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { perSecond: total / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), count: total, seconds, latencies };
}

export type LoadResult = Awaited<ReturnType<typeof load>>;

/** Several runs of the same load as one: their rate over their summed time, their percentiles over every latency. */
export function combined(runs: LoadResult[]): LoadResult {
  const count = runs.reduce((sum, r) => sum + r.count, 0);
  const seconds = runs.reduce((sum, r) => sum + r.seconds, 0);
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  return { perSecond: count / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), count, seconds, latencies };
}
