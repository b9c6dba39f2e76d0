import { BeaconReveals, type LateReveal } from './application/beaconReveals';
import type { GameService } from './application/gameService';
import { compose, type Adapters, type ServiceSettings } from './compose';
import type { BeaconSource } from './ports/beaconSource';
import { MemoryPendingReveals } from './store/memoryPendingReveals';

export interface RevealAdapters {
  /** Fetches drand rounds (the relay client, which checks each beacon's BLS signature). */
  beaconSource: BeaconSource;
  /** The metric hook of a reveal overdue. */
  onLateReveal?: (late: LateReveal) => void;
  /** How the reveals wait (a test's clock); timers by default. */
  revealWait?: (ms: number) => Promise<void>;
  /** Where the reveals' structured lines go; console.log by default. */
  revealLog?: (line: string) => void;
}

/**
 * The service of a process that also reveals beacon games (the local server, the reveal
 * function, tests): compose()'s, with BeaconReveals following each pending commit it stores.
 * Apart from compose.ts so that the functions that only accept (AWS's commands) bundle none of it.
 */
export function composeWithReveals(settings: ServiceSettings, adapters: Adapters & RevealAdapters): { service: GameService; reveals: BeaconReveals } {
  const { beaconSource, onLateReveal, revealWait, revealLog, ...rest } = adapters;
  const pendingReveals = adapters.pendingReveals ?? new MemoryPendingReveals();
  const service = compose(settings, { ...rest, pendingReveals, revealsBeacons: true });
  const reveals = new BeaconReveals({
    source: beaconSource,
    pendingReveals,
    reveal: (gameId, payload) => service.reveal(gameId, payload),
    gameNow: (gameId) => service.beaconGameNow(gameId),
    now: adapters.now ?? (() => new Date().toISOString()),
    wait: revealWait,
    onLate: onLateReveal,
    log: revealLog,
  });
  service.onCommit((commit) => reveals.stored(commit.gameId, [commit]));
  return { service, reveals };
}
