import { overdueSides } from '../../domain/game/clock';
import type { SeedVault } from '../ports/seedVault';
import type { Digest, SubscriptionKind, SubscriptionRecord, SubscriptionStore } from '../ports/subscriptionStore';
import { DeliveryError, messageIdOf, type Channel, type ChannelTarget, type DeliveryAttempt } from './channel';
import type { Notice } from './notice';
import type { NoticeSource } from './noticeSource';
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
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private readonly wakeUps = new Map<string, NodeJS.Timeout>();
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
   * Delivers what each subscription of the game (and of its tournament) has not had yet.
   * Idempotent; a second call while one runs for the game makes it run once more after.
   */
  catchUpGame(gameId: string): Promise<void> {
    const running = this.running.get(gameId);
    if (running) {
      this.again.add(gameId);
      return running;
    }
    const run = (async () => {
      do {
        this.again.delete(gameId);
        await this.runGame(gameId);
      } while (this.again.has(gameId) && !this.closed);
    })().finally(() => this.running.delete(gameId));
    this.running.set(gameId, run);
    return run;
  }

  /** Stops timers and waits for the runs under way. */
  async close(): Promise<void> {
    this.closed = true;
    this.stop();
    for (const timer of this.wakeUps.values()) clearTimeout(timer);
    this.wakeUps.clear();
    await Promise.allSettled([...this.running.values()]);
  }

  private async eachSubscribedGame(run: (gameId: string) => Promise<void>): Promise<void> {
    const games = new Set(await (this.deps.subscribedGames?.() ?? Promise.resolve([])));
    await Promise.all([...games].map((gameId) => run(gameId).catch((error) => this.log(`notifications: game ${gameId}: ${(error as Error).message}`))));
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

  private async runGame(gameId: string): Promise<void> {
    const subscriptions = await this.activeSubscriptions(gameId);
    if (subscriptions.length === 0) return;
    const dueAt = await Promise.all(subscriptions.map((subscription) => this.runSubscription(gameId, subscription)));
    const next = Math.min(...dueAt.filter((at): at is number => at !== undefined));
    if (Number.isFinite(next)) this.wakeUpAt(gameId, next);
  }

  /** Delivers the subscription's due commits; answers when a held digest falls due (ms since the epoch), if one is held. */
  private async runSubscription(gameId: string, subscription: SubscriptionRecord): Promise<number | undefined> {
    const { subscriptions } = this.deps;
    const channel = this.deps.channels[subscription.kind];
    if (!channel) return undefined;
    let target: ChannelTarget | undefined;
    for (let pages = 0; pages < 10_000 && !this.closed; pages++) {
      let cursor = await subscriptions.cursor(subscription.subscriptionId, gameId);
      const page = await this.deps.source.read(gameId, cursor ?? subscription.afterSeq ?? 0, PAGE);
      if (!page || page.notices.length === 0) return undefined;
      // Its owner's token was revoked or reissued since: the subscription ends, told nothing more.
      if (!page.granted(subscription)) return void (await subscriptions.remove(subscription.subscriptionId));
      let { notices } = page;
      if (cursor === undefined) {
        // A new subscription is told what happens from its creation on, not the game's past.
        const past = notices.filter((notice) => (subscription.afterSeq !== undefined ? notice.seq <= subscription.afterSeq : notice.recordedAt < subscription.createdAt));
        if (past.length > 0) {
          if (!(await subscriptions.advance(subscription.subscriptionId, gameId, undefined, past.at(-1)!.seq))) return undefined;
          continue;
        }
      }
      const batch = this.dueBatch(subscription.digest, notices, page.toMoveBefore);
      if ('heldUntil' in batch) return batch.heldUntil;
      notices = batch.notices;
      target ??= await this.targetOf(subscription);
      const delivered = notices;
      const outcome = await this.deliverWithRetries(target, gameId, messageIdOf(target.subscriptionId, delivered), (attempt) => channel.deliver(target!, delivered, attempt));
      // Stopped mid-way (a shutdown): the cursor stays, the next run delivers these again.
      if (outcome === 'stopped') return undefined;
      if (outcome !== 'delivered') {
        await subscriptions.addDeadLetter(subscription.subscriptionId, { seq: notices.at(-1)!.seq, at: new Date(this.nowMs()).toISOString(), error: outcome.reason });
        this.log(`notifications: subscription ${subscription.subscriptionId}, game ${gameId}, #${notices[0]!.seq}–#${notices.at(-1)!.seq}: dead letter: ${outcome.reason}`);
      }
      // Another process moved the cursor meanwhile: it delivers from there.
      if (!(await subscriptions.advance(subscription.subscriptionId, gameId, cursor, notices.at(-1)!.seq))) return undefined;
      cursor = notices.at(-1)!.seq;
    }
    return undefined;
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
        const wait = this.rate.take([`game\n${gameId}`, `host\n${host}`], this.nowMs());
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

  private wakeUpAt(gameId: string, atMs: number): void {
    if (this.closed) return;
    clearTimeout(this.wakeUps.get(gameId));
    const timer = setTimeout(() => {
      this.wakeUps.delete(gameId);
      this.stored(gameId);
    }, Math.max(0, Math.min(atMs - this.nowMs(), 2 ** 31 - 1)));
    timer.unref();
    this.wakeUps.set(gameId, timer);
  }
}
