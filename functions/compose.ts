import { CreationQuota } from './application/creationQuota';
import type { SnapshotUse } from './application/gameRepository';
import { GameService } from './application/gameService';
import { noSeedVault } from './application/seedVault';
import type { CreationCounter } from './ports/creationCounter';
import type { GameLeases } from './ports/gameLeases';
import type { SeedVault } from './ports/seedVault';
import type { Signer } from './ports/signer';
import type { TokenMinter } from './ports/tokenMinter';
import { settingName, SettingsError } from './config/settingNames';
import type { Settings } from './config/settings';
import type { EventStore } from './ports/eventStore';
import type { PublicStatsStore } from './ports/publicStatsStore';
import type { BeaconChain, BeaconSignatureCheck } from '../domain/beacon/chain';
import type { PendingReveals } from './ports/pendingReveals';
import type { SubscriptionsDeps } from './application/gameSubscriptions';

/** The settings the service itself follows; the rest (ports, tables, keys) choose its adapters. */
export type ServiceSettings = Pick<Settings, 'expiry' | 'creationQuota'>;

/** What differs between the Lambdas, the local server, the bench and the tests: where commits are kept, who signs, the clock. */
export interface Adapters {
  store: EventStore;
  signer: Signer;
  /** Where sealed games add their dice to GET /stats; none (the bench, push functions): nothing is added and GET /stats is empty. */
  publicStats?: PublicStatsStore;
  /** Functions that never roll open no seed: noSeedVault. */
  seedVault?: SeedVault;
  tokenMinter?: TokenMinter;
  now?: () => string;
  randomSeed?: () => Buffer;
  newGameId?: () => string;
  /** Needed when games expire (ARBITER_ABANDONED_GAME_DAYS). */
  leases?: GameLeases;
  /** Needed, with a token minter, when creations are bounded (ARBITER_CREATION_QUOTA_PER_HOUR). */
  creationCounter?: CreationCounter;
  snapshots?: SnapshotUse;
  soleWriter?: boolean;
  maxGroup?: number;
  itemBudget?: number;
  cacheSize?: number;
  /** The beacon chains the server offers (beaconChainsOf(settings)); quicknet alone by default. */
  beaconChains?: ReadonlyMap<string, BeaconChain>;
  /**
   * Beacon games are offered: this process reveals them (composeReveals.ts, with a
   * BeaconSource) or a reveal function beside it does (AWS's commands function).
   */
  revealsBeacons?: boolean;
  /** Where pending commits wait for their reveal: needed with revealsBeacons. */
  pendingReveals?: PendingReveals;
  /** Checks drand signatures in GET /games/{id}/verify: beaconSignatureValid, passed by the processes that bundle the BLS code. */
  beaconCheck?: BeaconSignatureCheck;
  /** Subscriptions to games' commits (composeNotifications); none: the subscription routes answer 503. */
  subscriptions?: SubscriptionsDeps;
}

/**
 * The one way the service is built, from settings and adapters. Refuses, naming the
 * setting, a setting the adapters cannot honour: expiring games with no lease store to
 * time them, a creation quota with no counter or no key to hash addresses with.
 */
export function compose(settings: ServiceSettings, adapters: Adapters): GameService {
  const { creationCounter, ...deps } = adapters;
  if (settings.expiry && !adapters.leases) {
    throw new SettingsError([`${settingName('expiry')} is set, but this service has no lease store to time abandoned games with`]);
  }
  if (settings.creationQuota && !(creationCounter && adapters.tokenMinter)) {
    throw new SettingsError([`${settingName('creationQuota')} is set, but this service has no creation counter or no token key to count creations with`]);
  }
  const now = adapters.now ?? (() => new Date().toISOString());
  return new GameService({
    ...deps,
    seedVault: adapters.seedVault ?? noSeedVault,
    now,
    ...(settings.expiry ? { expiry: settings.expiry } : {}),
    ...(settings.creationQuota && creationCounter && adapters.tokenMinter
      ? { creationQuota: new CreationQuota(creationCounter, settings.creationQuota, now, adapters.tokenMinter.clientKey) }
      : {}),
  });
}
