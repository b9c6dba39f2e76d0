import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { GameService } from '../application/gameService';
import { compose, type Adapters } from '../compose';
import { MAX_GROUP } from '../application/groupCommit';
import { aesSeedVault, newSeedKey } from '../application/seedVault';
import { generateSigningKey, signerFromKeyRing, type KeyRing } from '../application/signer';
import { createHandlers } from '../http/handlers';
import type { Observer } from '../http/observe';
import { DynamoEventStore } from '../store/dynamoStore';
import type { EventStore } from '../ports/eventStore';
import { startEmbeddedDynamo } from './embeddedDynamo';
import { startEmbeddedS3 } from './embeddedS3';
import { InProcessExportJobs } from '../application/tournamentExportJobs';
import { CorsPolicy } from './cors';
import { encryptPlainSeeds } from './encryptPlainSeeds';
import { createLocalServer } from './httpAdapter';
import { attachPush, type PushHub } from './pushServer';
import type { PushLimits } from '../push/protocol';
import { localVerifierSource } from './verifierSource';
import { localWebAssets } from './webAssets';
import { sealDataDir } from './dataDir';
import { loadKeyRing, loadOrCreateSeedKey, loadOrCreateTokenKey } from './keyFiles';
import { hmacTokenMinter } from '../application/tokenMinter';
import { AbandonedGames } from '../application/abandonedGames';
import type { QuotaPolicy } from '../application/creationQuota';
import type { ExpiryPolicy } from '../application/gameExpiry';
import { DynamoCreationCounter } from '../store/dynamoCreationCounter';
import { DynamoPublicStats } from '../store/dynamoPublicStats';
import { DynamoGameLeases } from '../store/dynamoGameLeases';
import { DynamoSnapshots } from '../store/dynamoSnapshots';
import { LocalSweeper } from './localSweeper';
import { reachableUrl } from './publicUrl';
import { randomBytes } from 'node:crypto';
import type { BeaconChain } from '../../domain/beacon/chain';
import type { BeaconSource } from '../ports/beaconSource';
import { DynamoPendingReveals } from '../store/dynamoPendingReveals';
import { composeWithReveals } from '../composeReveals';
import { beaconSignatureValid } from '../../domain/beacon/blsSignature';
import type { BeaconReveals } from '../application/beaconReveals';
import { composeNotifications, type NotificationAdapters } from '../composeNotifications';
import type { NotificationEngine } from '../notify/notificationEngine';
import { DynamoSubscriptions } from '../store/dynamoSubscriptions';

export interface LocalService {
  /** Where this process answers on this machine (loopback when it listens on every interface). */
  url: string;
  /** The origin in the links it hands out: ARBITER_PUBLIC_URL, else `url`. */
  publicUrl: string;
  port: number;
  service: GameService;
  store: EventStore;
  /** New commits pushed over WebSocket at /push on the same port (docs/push.md). */
  push: PushHub;
  /** Present when games expire: sweeps hourly, and on demand in tests. */
  sweeper?: LocalSweeper;
  /** Present with a beacon source: reveals beacon games' pending commits. */
  reveals?: BeaconReveals;
  /** Tells subscribers of each commit (docs/notifications.md). */
  notifications: NotificationEngine;
  close(): Promise<void>;
}

export interface LocalOptions {
  /** Where dynalite, the signing key and the seed key live; omitted = dynalite in memory, fresh keys. */
  dataDir?: string;
  /** The keys to sign with; default: those of the data directory, or a fresh key. */
  keyRing?: KeyRing;
  port?: number;
  host?: string;
  /** The origin people reach the server at, for the links it hands out (ARBITER_PUBLIC_URL, checked by publicUrlOf); default: `url`. */
  publicUrl?: string;
  observer?: Observer;
  /** Origins whose web pages may call the API (CORS); `*` for any. None by default. */
  corsOrigins?: readonly string[];
  /** Wraps the store, e.g. to inject faults in tests. */
  wrapStore?: (store: EventStore) => EventStore;
  /** Exports larger than this go through the export store and a link (exports.ts); smaller in tests. */
  exportInlineMaxBytes?: number;
  /** The push channel's limits, where a test needs them smaller (idle time, buffers). */
  pushLimits?: Partial<PushLimits>;
  /** Games left unsealed expire after this many days without a command (ARBITER_ABANDONED_GAME_DAYS); none: never. */
  expiry?: ExpiryPolicy;
  /** Creations per hour per address (ARBITER_CREATION_QUOTA_PER_HOUR); none: unbounded. */
  creationQuota?: QuotaPolicy;
  /** The service's clock, where a test needs to move it; the export store ages its objects by it too. */
  now?: () => string;
  /** How often expired exports are removed while the server runs (hourly); shorter in tests. */
  exportPruneEveryMs?: number;
  /** The beacon chains this server offers (beaconChainsOf(settings)); quicknet alone by default. */
  beaconChains?: ReadonlyMap<string, BeaconChain>;
  /** Fetches drand rounds (the relay client, ARBITER_DRAND_RELAYS): with it, beacon games are offered and revealed here. */
  beaconSource?: BeaconSource;
  /** How often PendingReveals is read for pending commits not followed (a safety net: those of an earlier run are followed from the start); 60 s by default. */
  revealDueEveryMs?: number;
  /** How the reveals wait, where a test moves the clock. */
  revealWait?: (ms: number) => Promise<void>;
  /** Told when the embedded store's thread ends while the server runs (an error in the store); commands answer 503 from then on. */
  onStoreLost?: (error: Error) => void;
  /** Notifications (docs/notifications.md): loopback targets allowed (ARBITER_NOTIFY_ALLOW_LOOPBACK), the e-mail channel, a test's clock and retries. */
  notifications?: Pick<NotificationAdapters, 'email' | 'engine'> & { allowLoopback?: boolean };
  /** How often overdue sides are looked for and due digests sent; every minute unless told. */
  notifyTickEveryMs?: number;
}


/** The whole service on one process: embedded DynamoDB, the handlers, a node:http front. */
export async function startLocalService(options: LocalOptions = {}): Promise<LocalService> {
  const ring = options.keyRing ?? (options.dataDir ? loadKeyRing(options.dataDir).ring : { current: generateSigningKey(), retired: [], log: [] });
  const seedKey = options.dataDir ? loadOrCreateSeedKey(options.dataDir) : newSeedKey();
  const dynamo = await startEmbeddedDynamo({ path: options.dataDir ? join(options.dataDir, 'dynamodb') : undefined, thread: true, onLost: options.onStoreLost });
  if (options.dataDir) sealDataDir(options.dataDir);
  // Group commit: this process takes many requests at once, and writes the commands of a game that wait together in one item.
  const dynamoStore: EventStore = new DynamoEventStore(dynamo.client, dynamo.tableName, { groups: true, seedTableName: dynamo.seedTableName });
  const seedVault = aesSeedVault(seedKey);
  if (options.dataDir) await encryptPlainSeeds(dynamo, dynamoStore, seedVault);
  const store = options.wrapStore ? options.wrapStore(dynamoStore) : dynamoStore;
  // The embedded store lives in this process and LevelDB locks its directory: nobody else writes.
  const tokenMinter = hmacTokenMinter(options.dataDir ? loadOrCreateTokenKey(options.dataDir) : randomBytes(32));
  const now = options.now ?? (() => new Date().toISOString());
  const leases = new DynamoGameLeases(dynamo.client, dynamo.tableName, dynamo.seedTableName);
  const settings = { expiry: options.expiry, creationQuota: options.creationQuota };
  // Notifications' links name the public origin, known once the server listens.
  let publicUrl = options.publicUrl ?? '';
  const subscriptionStore = new DynamoSubscriptions(dynamo.client, dynamo.tableName);
  const notifications = composeNotifications({
    store,
    subscriptions: subscriptionStore,
    vault: seedVault,
    publicUrl: () => publicUrl,
    allowLoopback: options.notifications?.allowLoopback ?? false,
    email: options.notifications?.email,
    engine: options.notifications?.engine,
    subscribedGames: async () => {
      const tournaments = await subscriptionStore.subscribedTournaments();
      const ofTournaments = await Promise.all(tournaments.map((tournamentId) => store.listTournamentGames(tournamentId)));
      return [...(await subscriptionStore.subscribedGames()), ...ofTournaments.flat()];
    },
  });
  const adapters: Adapters = {
    store,
    signer: signerFromKeyRing(ring),
    seedVault,
    tokenMinter,
    soleWriter: true,
    maxGroup: MAX_GROUP,
    now,
    leases,
    creationCounter: new DynamoCreationCounter(dynamo.client, dynamo.tableName),
    publicStats: new DynamoPublicStats(dynamo.client, dynamo.tableName),
    snapshots: { store: new DynamoSnapshots(dynamo.client, dynamo.tableName), write: true },
    beaconChains: options.beaconChains,
    beaconCheck: beaconSignatureValid,
    pendingReveals: new DynamoPendingReveals(dynamo.client, dynamo.tableName),
    subscriptions: notifications.subscriptions,
  };
  // With a beacon source this process offers beacon games and reveals them; without, it refuses them (422).
  const { service, reveals } = options.beaconSource
    ? composeWithReveals(settings, { ...adapters, beaconSource: options.beaconSource, revealWait: options.revealWait })
    : { service: compose(settings, adapters), reveals: undefined };
  // Pending commits an earlier run stored and did not reveal are followed from the start; the timer catches any missed.
  // Without relays nothing reveals them: say so, or those games wait (409 beacon_pending) with no word why.
  // Both read the store: close() waits for them before the store closes.
  const startup: Promise<unknown> = reveals
    ? reveals.resume().catch(() => undefined)
    : adapters.pendingReveals!
        .due(Number.MAX_SAFE_INTEGER, 1)
        .then((waiting) => {
          if (waiting.length > 0) console.warn('Arbiter: beacon games have rolls waiting for their drand round, but no relay is set (ARBITER_DRAND_RELAYS): they stay pending until Arbiter starts with one');
        })
        .catch(() => undefined);
  const revealDue = () => void reveals?.revealDue(Date.parse(now())).catch(() => undefined);
  const revealTimer = reveals ? setInterval(revealDue, options.revealDueEveryMs ?? 60_000) : undefined;
  revealTimer?.unref();
  const sweeper = options.expiry && new LocalSweeper(new AbandonedGames(leases, options.expiry, now, (gameId) => service.forgetGame(gameId)));
  // Each stored commit is told to its game's subscribers; at start-up, what an earlier run stored and did not tell.
  service.onCommit((commit) => notifications.engine.stored(commit.gameId));
  // Large exports: written to s3rver in this process, their links served on this port (embeddedS3.ts), as S3 serves them on AWS.
  const exportStore = await startEmbeddedS3({
    directory: options.dataDir ? join(options.dataDir, 'exports') : undefined,
    publicUrl: () => publicUrl,
    fixedPublicUrl: options.publicUrl !== undefined,
    now: () => Date.parse(now()),
    pruneEveryMs: options.exportPruneEveryMs,
  });
  // Tournament exports are made by jobs in this process, as the export function makes them on AWS (tournamentExportJobs.ts).
  const exportJobs = new InProcessExportJobs(service, exportStore.store, (job, outcome) => {
    if ('failed' in outcome) console.warn(`Arbiter: the export ${job.exportId} of tournament ${job.tournamentId} failed (${outcome.failed}); asking for its status starts it again`);
  });
  const exports = { store: exportStore.store, inlineMaxBytes: options.exportInlineMaxBytes, jobs: exportJobs };
  const server: Server = createLocalServer(createHandlers(service, localVerifierSource, options.observer, localWebAssets, exports), new CorsPolicy(options.corsOrigins ?? []), exportStore.serveLink);
  const push = attachPush({ server, service, allowedOrigins: options.corsOrigins ?? [], limits: options.pushLimits });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port, address } = server.address() as AddressInfo;
  const url = reachableUrl(address, port);
  publicUrl = options.publicUrl ?? url;
  const notifying = notifications.engine.resume().catch(() => undefined);
  // Overdue sides are reminded, and digests by minutes sent, by this tick (docs/notifications.md "Reminders").
  let ticking: Promise<unknown> = Promise.resolve();
  const notifyTimer = setInterval(() => {
    ticking = notifications.engine.tick(now()).catch(() => undefined);
  }, options.notifyTickEveryMs ?? 60_000);
  notifyTimer.unref();
  return {
    url,
    publicUrl,
    port,
    service,
    store,
    push,
    sweeper,
    reveals,
    notifications: notifications.engine,
    close: async () => {
      clearInterval(revealTimer);
      clearInterval(notifyTimer);
      // Closed first: a delivery in back-off ends at once (the next start delivers it), so shutdown never waits out its retries.
      const notificationsClosed = notifications.engine.close();
      await notifying;
      await ticking;
      await startup;
      await reveals?.close();
      await sweeper?.stop();
      await push.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      // Commands already taken are written, and their snapshots, before the store closes; so are the exports being made.
      await exportJobs.idle();
      await service.idle();
      await notificationsClosed;
      await dynamo.close();
      await exportStore.close();
    },
  };
}
