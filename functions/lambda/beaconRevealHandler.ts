import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { BeaconReveals, type LateReveal } from '../application/beaconReveals';
import type { GameService } from '../application/gameService';
import type { BeaconSource } from '../ports/beaconSource';
import type { PendingReveal, PendingReveals } from '../ports/pendingReveals';
import { PENDING_REVEALS_KEY, type EntryKeys } from '../store/dynamoPendingReveals';

/** EventBridge's scheduled event: only its presence matters. */
export interface ScheduleEvent {
  source: string;
  'detail-type'?: string;
}
export type RevealEvent = DynamoDBStreamEvent | ScheduleEvent;

export interface RevealHandlerDeps {
  service: () => Promise<GameService>;
  pendingReveals: () => PendingReveals;
  /** The entry a stream record's keys name (DynamoPendingReveals.entryAt); undefined when it is gone. */
  entryAt: (keys: EntryKeys) => Promise<PendingReveal | undefined>;
  source: () => BeaconSource;
  now?: () => number;
  onLate?: (late: LateReveal) => void;
  log?: (line: string) => void;
  /** How the reveals wait (a test's clock); timers by default. */
  wait?: (ms: number) => Promise<void>;
  /** Time kept back before the function's timeout to stop waiting and return (the ask in flight ends in it): what is left, the schedule reveals. */
  marginMs?: number | (() => number);
}

export type RevealSummary = { followed: number } | { due: number; revealed: number };

const DEFAULT_MARGIN_MS = 5_000;

/**
 * The reveal function (infra/beaconReveals.ts). A stream batch: each new PendingReveals entry
 * (an INSERT in the `reveal#pending` partition) is followed — wait for its round, ask the
 * relays, append the reveal — until revealed or the function's time is nearly up. A scheduled
 * event: the entries
 * already due are revealed, one ask each (those the stream missed or a relay failure left).
 * A fresh BeaconReveals per invocation: stopping it at the deadline leaves the next one whole.
 */
export function beaconRevealHandler(deps: RevealHandlerDeps) {
  const now = deps.now ?? Date.now;
  return async (event: RevealEvent, context: Pick<Context, 'getRemainingTimeInMillis'>): Promise<RevealSummary> => {
    const service = await deps.service();
    const reveals = new BeaconReveals({
      source: deps.source(),
      pendingReveals: deps.pendingReveals(),
      reveal: (gameId, payload) => service.reveal(gameId, payload),
      gameNow: (gameId) => service.beaconGameNow(gameId),
      now: () => new Date(now()).toISOString(),
      wait: deps.wait,
      onLate: deps.onLate,
      log: deps.log,
    });
    const margin = typeof deps.marginMs === 'function' ? deps.marginMs() : (deps.marginMs ?? DEFAULT_MARGIN_MS);
    const deadline = setTimeout(() => void reveals.close(), Math.max(0, context.getRemainingTimeInMillis() - margin));
    try {
      if (!('Records' in event)) return await reveals.revealDue(now());
      const keys = insertedKeys(event);
      let followed = 0;
      await Promise.all(
        keys.map(async (key) => {
          // Removed already (revealed by the schedule, or by an earlier try of this batch): nothing to follow.
          const entry = await deps.entryAt(key);
          if (!entry) return;
          followed += 1;
          // Its due time is its round's: the pending commit, written just after the entry, is stored by then.
          await reveals.followed(entry.gameId, entry.seq, entry.dueAtMs);
        }),
      );
      return { followed };
    } finally {
      clearTimeout(deadline);
      await reveals.close();
      await service.idle();
    }
  };
}

/** The keys of the new PendingReveals entries a stream batch gives (KEYS_ONLY). */
function insertedKeys(event: DynamoDBStreamEvent): EntryKeys[] {
  return event.Records.filter((record) => record.eventName === 'INSERT' && record.dynamodb?.Keys?.pk?.S === PENDING_REVEALS_KEY).map((record) => record.dynamodb!.Keys as EntryKeys);
}
