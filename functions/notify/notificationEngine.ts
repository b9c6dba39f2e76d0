import { overdueSides } from '../../domain/game/clock';
import type { SeedVault } from '../ports/seedVault';
import type { Digest, SubscriptionKind, SubscriptionRecord, SubscriptionStore } from '../ports/subscriptionStore';
import { DeliveryError, messageIdOf, type Channel, type ChannelTarget, type DeliveryAttempt } from './channel';
import type { Notice } from './notice';
import type { NoticePage, NoticeSource } from './noticeSource';
import { RateLimit } from './rateLimit';
import { reminderMessageId, reminderOf, type Reminder } from './reminder';
import { openTarget } from './sealedTarget';

export interface RetryPolicy {
  /** Tries in all before a dead letter. */
  attempts: number;
  firstDelayMs: number;
  maxDelayMs: number;
}

/** 8 tries over about 4 minutes: 1, 2, 4 … 64 s apart. */
export const DEFAULT_RETRY: RetryPolicy = { attempts: 8, firstDelayMs: 1000, maxDelayMs: 64_000 };
/** A digest never holds a commit longer than this. */
export const DIGEST_HOLD_MAX_MS = 24 * 3600_000;
const PAGE = 100;
/** Pages one run reads before it lets others go first (a wake-up takes the rest). */
const PAGES_PER_RUN = 10;
/** Games the minute's tick (and start-up) catches up side by side. */
const GAMES_AT_ONCE = 8;

export interface EngineDeps {
  subscriptions: SubscriptionStore;
  vault: SeedVault;
  source: NoticeSource;
  channels: Partial<Record<SubscriptionKind, Channel>>;
  /** The links an e-mail carries (confirm, unsubscribe), from the subscription's id and code. */
  links?: (subscriptionId: string, code: string) => { confirmUrl: string; unsubscribeUrl: string };
  /** Subscriptions of a tournament follow its games: the games a catch-up at start-up visits. */
  gamesOfTournament?: (tournamentId: string) => Promise<string[]>;
  /** Every game with a subscription of its own (start-up). */
  subscribedGames?: () => Promise<string[]>;
  nowMs?: () => number;
  wait?: (ms: number) => Promise<void>;
  retry?: RetryPolicy;
  /** Per game and per destination host; 60 a minute by default. */
  rate?: RateLimit;
  /** Where a delivery's failure is told (a dead letter, a run that threw); console.warn by default. */
  log?: (line: string) => void;
}

const timerWait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Delivers every commit of a subscribed game to each subscription, at least once, in order:
 * per subscription and game a cursor in the store says the last seq delivered (or
 * dead-lettered), and moves only after the channel answered. A run reads the commits after
 * the cursor, delivers them one by one or as digests, retries with back-off, and records a
 * dead letter once the tries are spent. Runs are idempotent: two at once (two processes, or
 * a restart) may deliver a commit twice with the same message id, never skip one.
 */
export class NotificationEngine {
  /** A game's pass (read its subscriptions and commits once, start each subscription's run), by game id. */
  private readonly passes = new Map<string, Promise<Promise<RunOutcome>[]>>();
  private readonly passAgain = new Set<string>();
  /** Each subscription catches up on its own, by `<gameId>\n<subscriptionId>`: a slow one holds no other back. */
  private readonly running = new Map<string, Promise<RunOutcome>>();
  private readonly again = new Set<string>();
  private readonly wakeUps = new Map<string, NodeJS.Timeout>();
  /** Runs that threw in a row, by the same keys: how long the next wake-up waits. */
  private readonly failures = new Map<string, number>();
  private readonly nowMs: () => number;
  private readonly wait: (ms: number) => Promise<void>;
  private readonly retry: RetryPolicy;
  private readonly rate: RateLimit;
  private readonly log: (line: string) => void;
  private closed = false;
  private stop!: () => void;
  /** Settles at close(): a back-off under way ends then, so that closing never waits it out. */
  private readonly stopped = new Promise<void>((resolve) => (this.stop = resolve));

  constructor(private readonly deps: EngineDeps) {
    this.nowMs = deps.nowMs ?? Date.now;
    const wait = deps.wait ?? timerWait;
    this.wait = (ms) => Promise.race([wait(ms), this.stopped]);
    this.retry = deps.retry ?? DEFAULT_RETRY;
    this.rate = deps.rate ?? new RateLimit(60, 60_000);
    this.log = deps.log ?? ((line) => console.warn(line));
  }

  /** A commit was stored: its game is caught up (a run under way runs once more after). */
  stored(gameId: string): void {
    if (this.closed) return;
    void this.catchUpGame(gameId).catch((error) => this.log(`notifications: game ${gameId}: ${(error as Error).message}`));
  }

  /** Start-up: every subscribed game caught up, those of an earlier run too. */
  async resume(): Promise<void> {
    await this.eachSubscribedGame((gameId) => this.catchUpGame(gameId));
  }

  /**
   * The periodic entry (every minute: the local server's timer, AWS's schedule): every
   * subscribed game caught up, digests that fell due sent (no in-process timer needed), and
   * each side overdue at `nowIso` reminded once per move to every subscription of its game.
   */
  async tick(nowIso: string): Promise<void> {
    if (this.closed) return;
    await this.eachSubscribedGame(async (gameId) => {
      await this.catchUpGame(gameId);
      await this.remindGame(gameId, nowIso);
    });
  }

  /**
   * Delivers what each subscription of the game (and of its tournament) has not had yet;
   * settles when each has. Idempotent; a second call while a subscription's run is under way
   * makes that run go once more after. Each subscription runs on its own: one whose receiver
   * hangs or fails holds back none of the others. Rejects, once every run settled, if one
   * threw (so that a queue's message is given again); the run is also retried in-process.
   */
  async catchUpGame(gameId: string): Promise<void> {
    const outcomes = await Promise.all(await this.passOf(gameId));
    const failed = outcomes.find((outcome) => outcome !== undefined);
    if (failed) throw failed.error;
  }

  /** Stops timers, ends the waits under way (back-off, rate) and waits for the runs under way. */
  async close(): Promise<void> {
    this.closed = true;
    this.stop();
    for (const timer of this.wakeUps.values()) clearTimeout(timer);
    this.wakeUps.clear();
    await Promise.allSettled([...this.passes.values()]);
    await Promise.allSettled([...this.running.values()]);
  }

  private passOf(gameId: string): Promise<Promise<RunOutcome>[]> {
    const running = this.passes.get(gameId);
    if (running) {
      this.passAgain.add(gameId);
      return running;
    }
    const pass = (async () => {
      const runs: Promise<RunOutcome>[] = [];
      do {
        this.passAgain.delete(gameId);
        try {
          runs.push(...(await this.passGame(gameId)));
          this.failures.delete(gameId);
        } catch (error) {
          this.retryLater(gameId, gameId);
          throw error;
        }
      } while (this.passAgain.has(gameId) && !this.closed);
      return runs;
    })().finally(() => {
      this.passes.delete(gameId);
      // Asked for between the last pass and now: one more.
      if (this.passAgain.delete(gameId)) this.stored(gameId);
    });
    this.passes.set(gameId, pass);
    return pass;
  }

  /** Reads the game's subscriptions and, once for all those idle, its commits after the earliest cursor; starts their runs. */
  private async passGame(gameId: string): Promise<Promise<RunOutcome>[]> {
    const subscriptions = (await this.activeSubscriptions(gameId)).filter((subscription) => this.deps.channels[subscription.kind]);
    const runs: Promise<RunOutcome>[] = [];
    const idle: SubscriptionRecord[] = [];
    for (const subscription of subscriptions) {
      const running = this.running.get(runKey(gameId, subscription));
      if (running) {
        this.again.add(runKey(gameId, subscription));
        runs.push(running);
      } else idle.push(subscription);
    }
    if (idle.length === 0) return runs;
    const cursors = await Promise.all(idle.map((subscription) => this.deps.subscriptions.cursor(subscription.subscriptionId, gameId)));
    const from = Math.min(...idle.map((subscription, i) => cursors[i] ?? subscription.afterSeq ?? 0));
    const page = await this.deps.source.read(gameId, from, PAGE);
    for (const subscription of idle) runs.push(this.runOf(gameId, subscription, page && { page, from }));
    return runs;
  }

  /** A subscription's run: from the page its game's pass read, then on its own while there is more. */
  private runOf(gameId: string, subscription: SubscriptionRecord, shared: SharedPage | undefined): Promise<RunOutcome> {
    const key = runKey(gameId, subscription);
    const running = this.running.get(key);
    if (running) {
      this.again.add(key);
      return running;
    }
    const run = (async () => {
      let page = shared;
      for (let rounds = 0; rounds < 100; rounds++) {
        if (this.closed) return;
        this.again.delete(key);
        const outcome = await this.runSubscription(gameId, subscription, page);
        page = undefined;
        if (typeof outcome === 'number') this.wakeUpAt(key, gameId, outcome);
        if (outcome !== 'more' && !this.again.has(key)) return;
      }
      // Far behind: the rest after a short pause, so that one subscription cannot hold the process.
      this.wakeUpAt(key, gameId, this.nowMs() + this.retry.firstDelayMs);
    })()
      .then(
        (): RunOutcome => void this.failures.delete(key),
        (error: unknown): RunOutcome => {
          this.log(`notifications: subscription ${subscription.subscriptionId}, game ${gameId}: ${(error as Error).message}`);
          this.retryLater(key, gameId);
          return { error };
        },
      )
      .finally(() => {
        this.running.delete(key);
        if (this.again.delete(key)) this.stored(gameId);
      });
    this.running.set(key, run);
    return run;
  }

  /** A run that threw (a store that failed) goes again after a back-off, at most `retry.attempts` times in a row. */
  private retryLater(key: string, gameId: string): void {
    const failures = (this.failures.get(key) ?? 0) + 1;
    this.failures.set(key, failures);
    if (failures > this.retry.attempts) return;
    this.wakeUpAt(key, gameId, this.nowMs() + Math.min(this.retry.maxDelayMs, this.retry.firstDelayMs * 2 ** (failures - 1)));
  }

  private async eachSubscribedGame(run: (gameId: string) => Promise<void>): Promise<void> {
    const games = [...new Set(await (this.deps.subscribedGames?.() ?? Promise.resolve([])))];
    const next = async () => {
      for (let gameId = games.shift(); gameId !== undefined; gameId = games.shift()) {
        await run(gameId).catch((error) => this.log(`notifications: game ${gameId}: ${(error as Error).message}`));
      }
    };
    await Promise.all(Array.from({ length: Math.min(GAMES_AT_ONCE, games.length) }, next));
  }

  /** The game's active subscriptions and its tournament's. */
  private async activeSubscriptions(gameId: string): Promise<SubscriptionRecord[]> {
    // A game nobody subscribed to costs two small reads per commit, never a read of its commits.
    const tournamentId = await this.deps.source.tournamentOf(gameId);
    return [
      ...(await this.deps.subscriptions.inScope({ gameId })),
      ...(tournamentId ? await this.deps.subscriptions.inScope({ tournamentId }) : []),
    ].filter((subscription) => subscription.status === 'active');
  }

  private async remindGame(gameId: string, nowIso: string): Promise<void> {
    if (!this.deps.source.clockOf) return;
    const subscriptions = (await this.activeSubscriptions(gameId)).filter((subscription) => this.deps.channels[subscription.kind]?.remind);
    if (subscriptions.length === 0) return;
    const game = await this.deps.source.clockOf(gameId);
    if (!game) return;
    for (const side of overdueSides(game, nowIso)) {
      const reminder = reminderOf(game, side, nowIso);
      await Promise.all(subscriptions.map((subscription) => this.remindSubscription(gameId, game.version, subscription, reminder)));
    }
  }

  /**
   * Marked in the store before it is sent, so that a second process or a restart does not
   * send it again: a reminder is sent at most once per subscription and move (a crash
   * between the mark and the delivery loses it; the commits are never lost).
   */
  private async remindSubscription(gameId: string, version: number, subscription: SubscriptionRecord, reminder: Reminder): Promise<void> {
    const channel = this.deps.channels[subscription.kind]!;
    const messageId = reminderMessageId(subscription.subscriptionId, reminder);
    if (!(await this.deps.subscriptions.markReminded(subscription.subscriptionId, gameId, messageId))) return;
    const target = await this.targetOf(subscription);
    const outcome = await this.deliverWithRetries(target, gameId, messageId, (attempt) => channel.remind!(target, reminder, attempt));
    if (outcome === 'delivered' || outcome === 'stopped') return;
    await this.deps.subscriptions.addDeadLetter(subscription.subscriptionId, { seq: version, at: new Date(this.nowMs()).toISOString(), error: `reminder of ${reminder.side}: ${outcome.reason}` });
    this.log(`notifications: subscription ${subscription.subscriptionId}, game ${gameId}, reminder of ${reminder.side}: dead letter: ${outcome.reason}`);
  }

  /**
   * Delivers the subscription's due commits, every due one of a page before the next is read:
   * 'done', 'more' (a page cap reached), or when a held digest falls due (ms since the epoch).
   */
  private async runSubscription(gameId: string, subscription: SubscriptionRecord, shared: SharedPage | undefined): Promise<'done' | 'more' | number> {
    const { subscriptions } = this.deps;
    const channel = this.deps.channels[subscription.kind];
    if (!channel) return 'done';
    let target: ChannelTarget | undefined;
    for (let pages = 0; pages < PAGES_PER_RUN; pages++) {
      if (this.closed) return 'done';
      let cursor = await subscriptions.cursor(subscription.subscriptionId, gameId);
      const after = cursor ?? subscription.afterSeq ?? 0;
      // Read after an earlier cursor, the shared page may hold only this one's first commits: a held digest would miss its end.
      const page = shared && shared.from === after ? shared.page : await this.deps.source.read(gameId, after, PAGE);
      const full = page !== undefined && page.notices.length >= PAGE;
      shared = undefined;
      if (!page) return 'done';
      const start = page.notices.findIndex((notice) => notice.seq > after);
      if (start < 0) {
        if (full) continue;
        return 'done';
      }
      // Its owner's token was revoked or reissued since: the subscription ends, told nothing more.
      if (!page.granted(subscription)) {
        await subscriptions.remove(subscription.subscriptionId);
        return 'done';
      }
      let toMoveBefore = start === 0 ? page.toMoveBefore : page.notices[start - 1]!.toMove;
      let notices = page.notices.slice(start);
      if (cursor === undefined) {
        // A new subscription is told what happens from its creation on, not the game's past.
        const past = notices.filter((notice) => (subscription.afterSeq !== undefined ? notice.seq <= subscription.afterSeq : notice.recordedAt < subscription.createdAt));
        if (past.length > 0) {
          if (!(await subscriptions.advance(subscription.subscriptionId, gameId, undefined, past.at(-1)!.seq))) return 'done';
          cursor = past.at(-1)!.seq;
          toMoveBefore = past.at(-1)!.toMove;
          notices = notices.slice(past.length);
        }
      }
      while (notices.length > 0) {
        const batch = this.dueBatch(subscription.digest, notices, toMoveBefore);
        if ('heldUntil' in batch) return batch.heldUntil;
        target ??= await this.targetOf(subscription);
        const delivered = fitting(channel, batch.notices);
        const outcome = await this.deliverWithRetries(target, gameId, messageIdOf(target.subscriptionId, delivered), (attempt) => channel.deliver(target!, delivered, attempt));
        // Stopped mid-way (a shutdown): the cursor stays, the next run delivers these again.
        if (outcome === 'stopped') return 'done';
        if (outcome !== 'delivered') {
          await subscriptions.addDeadLetter(subscription.subscriptionId, { seq: delivered.at(-1)!.seq, at: new Date(this.nowMs()).toISOString(), error: outcome.reason });
          this.log(`notifications: subscription ${subscription.subscriptionId}, game ${gameId}, #${delivered[0]!.seq}–#${delivered.at(-1)!.seq}: dead letter: ${outcome.reason}`);
        }
        // Another process moved the cursor meanwhile: it delivers from there.
        if (!(await subscriptions.advance(subscription.subscriptionId, gameId, cursor, delivered.at(-1)!.seq))) return 'done';
        cursor = delivered.at(-1)!.seq;
        toMoveBefore = delivered.at(-1)!.toMove;
        notices = notices.slice(delivered.length);
      }
      if (!full) return 'done';
    }
    return 'more';
  }

  /** The notices to send now, in one delivery, or when the first held one falls due. */
  private dueBatch(digest: Digest, notices: readonly Notice[], toMoveBefore: string | null): { notices: Notice[] } | { heldUntil: number } {
    const now = this.nowMs();
    const firstAt = Date.parse(notices[0]!.recordedAt);
    const overdue = now >= firstAt + DIGEST_HOLD_MAX_MS;
    if (digest === 'commit') return { notices: [notices[0]!] };
    if (digest === 'turn') {
      // A turn ends with the commit after which another side is to move; with no turn model each commit is its own turn.
      const end = notices.findIndex((notice) => notice.toMove === null || notice.toMove !== toMoveBefore);
      if (end >= 0) return { notices: notices.slice(0, end + 1) };
      return overdue ? { notices: [...notices] } : { heldUntil: firstAt + DIGEST_HOLD_MAX_MS };
    }
    const dueAt = firstAt + digest.everyMinutes * 60_000;
    return now >= dueAt || overdue ? { notices: [...notices] } : { heldUntil: Math.min(dueAt, firstAt + DIGEST_HOLD_MAX_MS) };
  }

  private async targetOf(subscription: SubscriptionRecord): Promise<ChannelTarget> {
    const secrets = await openTarget(this.deps.vault, subscription.subscriptionId, subscription.sealedTarget);
    const links = secrets.code && this.deps.links ? this.deps.links(subscription.subscriptionId, secrets.code) : undefined;
    return {
      subscriptionId: subscription.subscriptionId,
      kind: subscription.kind,
      ...(secrets.url ? { url: secrets.url } : {}),
      ...(secrets.address ? { address: secrets.address } : {}),
      ...(secrets.secret ? { secret: secrets.secret } : {}),
      ...(links ?? {}),
    };
  }

  private async deliverWithRetries(target: ChannelTarget, gameId: string, messageId: string, send: (attempt: DeliveryAttempt) => Promise<void>): Promise<'delivered' | 'stopped' | DeliveryError> {
    const host = target.url ? new URL(target.url).host : (target.address?.split('@')[1] ?? '');
    let last = new DeliveryError(true, 'not tried');
    for (let number = 1; number <= this.retry.attempts && !this.closed; number++) {
      for (let waits = 0; waits < 1000; waits++) {
        // A retry counts against its own destination only: a failing receiver spends none of its game's budget beyond its first tries.
        const wait = this.rate.take(number === 1 ? [`game\n${gameId}`, `host\n${host}`] : [`host\n${host}`], this.nowMs());
        if (wait === 0) break;
        await this.wait(wait);
      }
      try {
        await send({ messageId, timestamp: Math.floor(this.nowMs() / 1000), number });
        return 'delivered';
      } catch (error) {
        last = error instanceof DeliveryError ? error : new DeliveryError(true, 'the channel failed');
        if (!last.retryable) return last;
      }
      if (number < this.retry.attempts) await this.wait(Math.min(this.retry.maxDelayMs, this.retry.firstDelayMs * 2 ** (number - 1)));
    }
    return this.closed ? 'stopped' : last;
  }

  private wakeUpAt(key: string, gameId: string, atMs: number): void {
    if (this.closed) return;
    clearTimeout(this.wakeUps.get(key));
    const timer = setTimeout(() => {
      this.wakeUps.delete(key);
      this.stored(gameId);
    }, Math.max(0, Math.min(atMs - this.nowMs(), 2 ** 31 - 1)));
    timer.unref();
    this.wakeUps.set(key, timer);
  }
}

interface SharedPage {
  page: NoticePage;
  /** The seq it was read after. */
  from: number;
}

/** A run that threw: its error (a run logs it and is tried again later; catchUpGame rejects with it). */
type RunOutcome = { error: unknown } | undefined;

const runKey = (gameId: string, subscription: SubscriptionRecord) => `${gameId}\n${subscription.subscriptionId}`;

/** The longest first part of a batch the channel can carry in one delivery (at least one notice: one too large alone is dead-lettered alone). */
function fitting(channel: Channel, notices: Notice[]): Notice[] {
  if (!channel.fits || notices.length <= 1 || channel.fits(notices)) return notices;
  let low = 1;
  let high = notices.length - 1;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (channel.fits(notices.slice(0, middle))) low = middle;
    else high = middle - 1;
  }
  return notices.slice(0, low);
}
