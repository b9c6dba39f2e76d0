import { describe, expect, it } from 'vitest';
import { GroupQueue } from '../../../functions/application/groupQueue';

/** A queue whose groups are recorded; each group is "written" in a later turn of the event loop. */
function recordingQueue(maxGroup = 16) {
  const groups: string[][] = [];
  const queue = new GroupQueue<string, string>(async (_key, group) => {
    groups.push(group.map((entry) => entry.job));
    await new Promise((resolve) => setTimeout(resolve, 1));
    for (const entry of group) entry.resolve(`done ${entry.job}`);
  }, maxGroup);
  return { queue, groups };
}

describe('GroupQueue', () => {
  it('puts the requests that arrive in the same turn of the event loop in one group, even when the first came alone', async () => {
    const { queue, groups } = recordingQueue();
    // As the HTTP server hands them over: one request, then others whose bytes were read in the same turn.
    const answers = [queue.submit('game', 'a')];
    queueMicrotask(() => answers.push(queue.submit('game', 'b')));
    process.nextTick(() => answers.push(queue.submit('game', 'c')));
    await new Promise((resolve) => setImmediate(resolve));
    expect(await Promise.all(answers)).toEqual(['done a', 'done b', 'done c']);
    expect(groups).toEqual([['a', 'b', 'c']]);
  });

  it('takes what waited during a write as the next group, in arrival order, at most maxGroup at a time', async () => {
    const { queue, groups } = recordingQueue(2);
    const first = queue.submit('game', 'a');
    await new Promise((resolve) => setImmediate(resolve));
    const later = ['b', 'c', 'd'].map((job) => queue.submit('game', job));
    await Promise.all([first, ...later]);
    expect(groups).toEqual([['a'], ['b', 'c'], ['d']]);
  });

  it('writes the groups of different games side by side, and settles every job of a group that throws', async () => {
    const groups: string[][] = [];
    const queue = new GroupQueue<string, string>(async (key, group) => {
      groups.push(group.map((entry) => `${key}:${entry.job}`));
      if (key === 'broken') throw new Error('the write failed');
      for (const entry of group) entry.resolve(entry.job);
    }, 16);
    const results = await Promise.allSettled([queue.submit('one', 'a'), queue.submit('broken', 'b'), queue.submit('broken', 'c'), queue.submit('two', 'd')]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(groups).toEqual([['one:a'], ['broken:b', 'broken:c'], ['two:d']]);
    await queue.idle();
  });
});
