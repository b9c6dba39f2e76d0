import { describe, expect, it } from 'vitest';
import { onDemand } from '../../../functions/application/onDemand';

describe('an object loaded on demand', () => {
  it('is loaded by the first call of a method, once; a failed load is tried again; awaiting it gives it, not a call', async () => {
    let loads = 0;
    let fail = true;
    const counter = onDemand(async () => {
      loads += 1;
      if (fail) throw new Error('the chunk did not load');
      let n = 0;
      return { next: async (by: number) => (n += by) };
    });
    expect(loads).toBe(0);
    await expect(counter.next(1)).rejects.toThrow('the chunk did not load');
    fail = false;
    expect(await Promise.all([counter.next(1), counter.next(2)])).toEqual([1, 3]);
    expect(await counter.next(10)).toBe(13);
    expect(loads).toBe(2);
    expect(await Promise.resolve(counter)).toBe(counter);
  });
});
