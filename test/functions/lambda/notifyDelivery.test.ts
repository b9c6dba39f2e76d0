import { describe, expect, it } from 'vitest';
import { notifyDeliveryHandler, type DeliveryEngine, type DeliveryLog, type QueueRecord } from '../../../functions/lambda/notifyDeliveryHandler';
import { notifyMessageBody } from '../../../functions/lambda/notifyQueue';

/** An engine that records the games it was asked to catch up, and fails those named. */
function fakeEngine(failing: ReadonlySet<string> = new Set(), withTick = true) {
  const caughtUp: string[] = [];
  const ticks: string[] = [];
  let resumed = 0;
  const engine: DeliveryEngine = {
    async catchUpGame(gameId) {
      caughtUp.push(gameId);
      if (failing.has(gameId)) throw new Error(`webhook of ${gameId} answered 503`);
    },
    async resume() {
      resumed += 1;
    },
    ...(withTick ? { tick: async (nowIso: string) => void ticks.push(nowIso) } : {}),
  };
  return { engine, caughtUp, ticks, resumed: () => resumed };
}

function recordingLog() {
  const lines: { level: string; message: string; details: Record<string, unknown> }[] = [];
  const log: DeliveryLog = {
    warn: (message, details) => void lines.push({ level: 'warn', message, details }),
    error: (message, details) => void lines.push({ level: 'error', message, details }),
  };
  return { log, lines };
}

const message = (messageId: string, gameId: string): QueueRecord => ({ messageId, body: notifyMessageBody(gameId) });

describe('the notification delivery function (functions/lambda/notifyDeliveryHandler.ts), with the engine faked', () => {
  it('catches each game of a batch up once, and names in batchItemFailures every message of a game that failed, and no other', async () => {
    const { engine, caughtUp } = fakeEngine(new Set(['g2']));
    const { log, lines } = recordingLog();
    const handle = notifyDeliveryHandler({ engine: async () => engine, log });
    const answer = await handle({ Records: [message('m1', 'g1'), message('m2', 'g2'), message('m3', 'g1'), message('m4', 'g2')] });
    expect(caughtUp.sort()).toEqual(['g1', 'g2']);
    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm2' }, { itemIdentifier: 'm4' }] });
    expect(lines).toEqual([{ level: 'error', message: 'notifications of a game not delivered: its messages go back to the queue', details: { gameId: 'g2', error: { name: 'Error', message: 'webhook of g2 answered 503' } } }]);
  });

  it('answers no failure when every game is caught up', async () => {
    const { engine } = fakeEngine();
    const handle = notifyDeliveryHandler({ engine: async () => engine, log: recordingLog().log });
    expect(await handle({ Records: [message('m1', 'g1'), message('m2', 'g2')] })).toEqual({ batchItemFailures: [] });
  });

  it('puts every message back when the engine cannot be built (the table or KMS unreachable)', async () => {
    const handle = notifyDeliveryHandler({ engine: () => Promise.reject(new Error('KMS unavailable')), log: recordingLog().log });
    expect(await handle({ Records: [message('m1', 'g1'), message('m2', 'g2')] })).toEqual({ batchItemFailures: [{ itemIdentifier: 'm1' }, { itemIdentifier: 'm2' }] });
  });

  it('drops a message that names no game (never retried into the dead letters), and logs it', async () => {
    const { engine, caughtUp } = fakeEngine();
    const { log, lines } = recordingLog();
    const handle = notifyDeliveryHandler({ engine: async () => engine, log });
    expect(await handle({ Records: [{ messageId: 'bad', body: '{"gameId":"g1#seed"}' }, message('m1', 'g1')] })).toEqual({ batchItemFailures: [] });
    expect(caughtUp).toEqual(['g1']);
    expect(lines).toEqual([{ level: 'warn', message: 'notification queue message names no game: dropped', details: { messageId: 'bad' } }]);
  });

  it('catches up at most `gamesAtOnce` games side by side', async () => {
    let running = 0;
    let most = 0;
    const engine: DeliveryEngine = {
      resume: async () => {},
      async catchUpGame() {
        running += 1;
        most = Math.max(most, running);
        await new Promise((resolve) => setImmediate(resolve));
        running -= 1;
      },
    };
    const handle = notifyDeliveryHandler({ engine: async () => engine, log: recordingLog().log, gamesAtOnce: 2 });
    await handle({ Records: Array.from({ length: 7 }, (_, i) => message(`m${i}`, `g${i}`)) });
    expect(most).toBe(2);
  });

  it('ticks the engine on the schedule\'s event, at the event\'s time, and resumes it (every subscribed game caught up) when it has no tick', async () => {
    const withTick = fakeEngine();
    const handle = notifyDeliveryHandler({ engine: async () => withTick.engine, log: recordingLog().log });
    expect(await handle({ source: 'aws.events', time: '2026-11-27T09:00:00Z' })).toEqual({ ticked: true });
    expect(withTick.ticks).toEqual(['2026-11-27T09:00:00Z']);
    expect(withTick.caughtUp).toEqual([]);
    expect(withTick.resumed()).toBe(0);

    const without = fakeEngine(new Set(), false);
    const bare = notifyDeliveryHandler({ engine: async () => without.engine, log: recordingLog().log });
    expect(await bare({ source: 'aws.events', time: '2026-11-27T09:00:00Z' })).toEqual({ ticked: true });
    expect(without.resumed()).toBe(1);
  });

  it('lets a failed tick fail the invocation (the function\'s Errors alarm)', async () => {
    const engine: DeliveryEngine = { catchUpGame: async () => {}, resume: async () => {}, tick: () => Promise.reject(new Error('table unavailable')) };
    const handle = notifyDeliveryHandler({ engine: async () => engine, log: recordingLog().log });
    await expect(handle({ source: 'aws.events' })).rejects.toThrow('table unavailable');
  });
});
