import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { dynamoClient, kmsClient } from './awsClients';
import type { GameService } from '../application/gameService';
import { kmsSeedVault } from '../application/kmsSeedVault';
import { kmsSigner, type KmsKeyRing } from '../application/kmsSigner';
import { kmsTokenMinter } from '../application/tokenMinter';
import { compose, type Adapters } from '../compose';
import { required, type Settings } from '../config/settings';
import { DynamoPendingReveals } from '../store/dynamoPendingReveals';
import { beaconChainsOf } from '../config/beaconChains';
import { DynamoEventStore } from '../store/dynamoStore';
import { DynamoGameLeases } from '../store/dynamoGameLeases';
import { DynamoSnapshots } from '../store/dynamoSnapshots';
import { DynamoCreationCounter } from '../store/dynamoCreationCounter';
import { DynamoPublicStats } from '../store/dynamoPublicStats';
import { KeyRingStore } from '../store/keyRingStore';
import { unavailableWhenTransient } from '../store/transientErrors';
import { lambdaSettings } from './lambdaSettings';
import { lambdaSubscriptions } from './lambdaSubscriptions';

/** How long a warm container trusts the key ring it read: a rotation reaches every container within this. */
export const KEY_RING_REFRESH_MS = 60_000;

interface Built {
  service: GameService;
  ring: string;
  checkedAt: number;
}

/** What a function adds to the adapters every function has (the reveal function: its store of pending reveals). */
export type MoreAdapters = (client: DynamoDBClient, tableName: string, settings: Settings) => Partial<Adapters>;

export interface WarmService {
  /** The service of this container, its key ring read again at most once a minute. */
  service(now?: number): Promise<GameService>;
  /** Resolves once the service has finished the work that follows its answers (a snapshot). */
  idle(): Promise<void>;
}

/**
 * The service of a warm container. Its signer is a KMS key: the commands function may sign
 * (kms:Sign), the others only publish the public keys (kms:GetPublicKey). Which key is
 * current comes from the key ring item, read again at most once a minute, so a rotation
 * (npm run rotate-key:aws) reaches warm containers without a redeploy. A failed build is
 * retried by the next request.
 */
export function warmService(more: MoreAdapters = beaconAcceptance): WarmService {
  let current: Promise<Built> | undefined;
  const forget = (error: unknown): never => {
    current = undefined;
    throw error;
  };
  return {
    async service(now = Date.now()) {
      const built = await (current ??= build(undefined, more).catch(forget));
      if (now - built.checkedAt < KEY_RING_REFRESH_MS) return built.service;
      const refreshed = (current = build(built, more).catch(forget));
      return (await refreshed).service;
    },
    async idle() {
      const built = await current?.catch(() => undefined);
      await built?.service.idle();
    },
  };
}

/**
 * With relays set (ARBITER_DRAND_RELAYS: the stack deploys the reveal function then), the
 * function that signs accepts beacon rolls and leaves each pending commit in the table for
 * the reveal function (infra/beaconReveals.ts); it asks no relay and bundles no BLS code.
 */
export function beaconAcceptance(client: DynamoDBClient, tableName: string, settings: Settings): Partial<Adapters> {
  if (!settings.signs || !settings.drandRelays?.length) return {};
  return beaconAdapters(client, tableName, settings);
}

/** What a function of the commands side needs for beacon games: the store of pending reveals, the chains offered (quicknet, and ARBITER_BEACON_CHAINS's if set). */
export function beaconAdapters(client: DynamoDBClient, tableName: string, settings: Settings): Partial<Adapters> {
  return { revealsBeacons: true, pendingReveals: new DynamoPendingReveals(client, tableName), beaconChains: beaconChainsOf(settings) };
}

// Reads lists subscriptions (commands makes and ends them, with its own e-mail sender: commands.ts). Built on first use,
// so that a bundle which never calls lambdaService (the reveal function's) carries none of it.
let shared: WarmService | undefined;
const sharedService = () => (shared ??= warmService((client, tableName, settings) => ({ ...beaconAcceptance(client, tableName, settings), subscriptions: lambdaSubscriptions(client, tableName, settings) })));

/** The service of the reads function. */
export const lambdaService = (now = Date.now()): Promise<GameService> => sharedService().service(now);

/** Once this container's service has finished the work that follows its answers (a snapshot): before Lambda may freeze it. */
export const serviceIdle = (): Promise<void> => sharedService().idle();

// One client per service and container, with timeouts and failure metrics (awsClients.ts).
const dynamo = () => dynamoClient();
const kms = () => kmsClient();

async function build(previous: Built | undefined, more: MoreAdapters): Promise<Built> {
  const settings = lambdaSettings();
  const tableName = required(settings, 'tableName');
  const client = dynamo();
  const ring = await unavailableWhenTransient(() => new KeyRingStore(client, tableName).read(required(settings, 'signingKeyId')));
  const text = JSON.stringify(ring);
  if (previous && previous.ring === text) return { ...previous, checkedAt: Date.now() };
  return { service: await serviceFor(client, tableName, ring, more), ring: text, checkedAt: Date.now() };
}

async function serviceFor(client: DynamoDBClient, tableName: string, ring: KmsKeyRing, more: MoreAdapters): Promise<GameService> {
  const keys = kms();
  const settings = lambdaSettings();
  // Only the function that creates games, rolls and seals is given the seed key, and Sign.
  const signs = settings.signs === true;
  const tokenMinter = settings.tokenKeyId ? kmsTokenMinter(keys, settings.tokenKeyId) : undefined;
  return compose(
    // Every function tells when a game would be abandoned; only the commands function arms leases, and is given the quota.
    { expiry: settings.expiry, creationQuota: settings.creationQuota },
    {
      // DynamoDB on AWS has transactions: a game's items are created at once.
      store: new DynamoEventStore(client, tableName, { transactions: true, seedTableName: settings.seedTableName }),
      signer: await unavailableWhenTransient(() => kmsSigner(keys, ring, signs ? 'sign' : 'publish')),
      ...(settings.seedKeyId ? { seedVault: kmsSeedVault(keys, settings.seedKeyId) } : {}),
      leases: new DynamoGameLeases(client, tableName),
      // The commands function adds a sealed game's dice (conditional puts); the reads function answers GET /stats (a Query).
      publicStats: new DynamoPublicStats(client, tableName),
      // Every function reads snapshots; the one that commits writes them.
      snapshots: { store: new DynamoSnapshots(client, tableName), write: signs },
      ...(tokenMinter ? { tokenMinter, creationCounter: new DynamoCreationCounter(client, tableName) } : {}),
      ...more(client, tableName, settings),
    },
  );
}
