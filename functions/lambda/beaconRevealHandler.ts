import type { Context, DynamoDBStreamEvent } from 'aws-lambda';
import { BeaconReveals, type LateReveal } from '../application/beaconReveals';
import type { GameService } from '../application/gameService';
import type { BeaconSource } from '../ports/beaconSource';
import type { PendingReveals } from '../ports/pendingReveals';
import { PENDING_REVEAL_KEY_PREFIX } from '../store/dynamoPendingReveals';

/** EventBridge's scheduled event: only its presence matters. */
export interface ScheduleEvent {
  source: string;
  'detail-type'?: string;
}
export type RevealEvent = DynamoDBStreamEvent | ScheduleEvent;

export interface RevealHandlerDeps {
  service: () => Promise<GameService>;
  pendingReveals: () => PendingReveals;
  source: () => BeaconSource;
  now?: () => number;
  onLate?: (late: LateReveal) => void;
  log?: (line: string) => void;
  /** How the reveals wait (a test's clock); timers by default. */
  wait?: (ms: number) => Promise<void>;
  /** Time kept back before the function's timeout to stop waiting and return: what is left, the schedule reveals. */
  marginMs?: number;
}

export type RevealSummary = { followed: number } | { due: number; revealed: number };

const DEFAULT_MARGIN_MS = 5_000;

/**
 * The reveal function (infra/beaconReveals.ts). A stream batch: each new PendingReveals entry
 * (`reveal#<game>`, its seq) is followed — wait for its round, ask the relays, append the
 * reveal — until revealed or the function's time is nearly up. A scheduled event: the entries
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
    const deadline = setTimeout(() => void reveals.close(), Math.max(0, context.getRemainingTimeInMillis() - (deps.marginMs ?? DEFAULT_MARGIN_MS)));
    try {
      if (!('Records' in event)) return await reveals.revealDue(now());
      const entries = newEntries(event);
      await Promise.all(
        entries.map(async ({ gameId, seq }) => {
          const roundAtMs = await roundAtOf(service, gameId, seq, now());
          await reveals.followed(gameId, seq, roundAtMs);
        }),
      );
      return { followed: entries.length };
    } finally {
      clearTimeout(deadline);
      await reveals.close();
      await service.idle();
    }
  };
}

/** The PendingReveals entries a stream batch inserted (KEYS_ONLY: `reveal#<game>` and the pending commit's seq). */
function newEntries(event: DynamoDBStreamEvent): { gameId: string; seq: number }[] {
  const entries: { gameId: string; seq: number }[] = [];
  for (const record of event.Records) {
    const pk = record.dynamodb?.Keys?.pk?.S;
    const seq = Number(record.dynamodb?.Keys?.sk?.N);
    if (record.eventName !== 'INSERT' || !pk?.startsWith(PENDING_REVEAL_KEY_PREFIX) || !Number.isSafeInteger(seq)) continue;
    entries.push({ gameId: pk.slice(PENDING_REVEAL_KEY_PREFIX.length), seq });
  }
  return entries;
}

/**
 * When the entry's round is published. The entry is written just before its pending commit:
 * should the commit not be readable yet, its round is at least a period away, so the first
 * ask waits that long (and finds the commit stored, or the entry one that was never committed).
 */
async function roundAtOf(service: GameService, gameId: string, seq: number, nowMs: number): Promise<number> {
  const game = await service.beaconGameNow(gameId).catch(() => undefined);
  if (!game) return nowMs;
  if (game.pending?.seq === seq) return Date.parse(game.pending.roundAt);
  return nowMs + game.chain.period * 1000;
}
