import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { dynamoClient, kmsClient } from './awsClients';
import type { GameService } from '../application/gameService';
import { kmsSeedVault } from '../application/kmsSeedVault';
import { kmsSigner, type KmsKeyRing } from '../application/kmsSigner';
import { kmsTokenMinter } from '../application/tokenMinter';
import { compose } from '../compose';
import { required } from '../config/settings';
import { DynamoEventStore } from '../store/dynamoStore';
import { DynamoGameLeases } from '../store/dynamoGameLeases';
import { DynamoSnapshots } from '../store/dynamoSnapshots';
import { DynamoCreationCounter } from '../store/dynamoCreationCounter';
import { DynamoPublicStats } from '../store/dynamoPublicStats';
import { KeyRingStore } from '../store/keyRingStore';
import { unavailableWhenTransient } from '../store/transientErrors';
import { lambdaSettings } from './lambdaSettings';

/** How long a warm container trusts the key ring it read: a rotation reaches every container within this. */
export const KEY_RING_REFRESH_MS = 60_000;

interface Built {
  service: GameService;
  ring: string;
  checkedAt: number;
}

let current: Promise<Built> | undefined;

/**
 * The service of a warm container. Its signer is a KMS key: the commands function may sign
 * (kms:Sign), the others only publish the public keys (kms:GetPublicKey). Which key is
 * current comes from the key ring item, read again at most once a minute, so a rotation
 * (npm run rotate-key:aws) reaches warm containers without a redeploy. A failed build is
 * retried by the next request.
 */
export async function lambdaService(now = Date.now()): Promise<GameService> {
  const built = await (current ??= build(undefined).catch(forget));
  if (now - built.checkedAt < KEY_RING_REFRESH_MS) return built.service;
  const refreshed = (current = build(built).catch(forget));
  return (await refreshed).service;
}

/** Once this container's service has finished the work that follows its answers (a snapshot): before Lambda may freeze it. */
export async function serviceIdle(): Promise<void> {
  const built = await current?.catch(() => undefined);
  await built?.service.idle();
}

function forget(error: unknown): never {
  current = undefined;
  throw error;
}

// One client per service and container, with timeouts and failure metrics (awsClients.ts).
const dynamo = () => dynamoClient();
const kms = () => kmsClient();

async function build(previous: Built | undefined): Promise<Built> {
  const settings = lambdaSettings();
  const tableName = required(settings, 'tableName');
  const client = dynamo();
  const ring = await unavailableWhenTransient(() => new KeyRingStore(client, tableName).read(required(settings, 'signingKeyId')));
  const text = JSON.stringify(ring);
  if (previous && previous.ring === text) return { ...previous, checkedAt: Date.now() };
  return { service: await serviceFor(client, tableName, ring), ring: text, checkedAt: Date.now() };
}

async function serviceFor(client: DynamoDBClient, tableName: string, ring: KmsKeyRing): Promise<GameService> {
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
      store: new DynamoEventStore(client, tableName, { transactions: true }),
      signer: await unavailableWhenTransient(() => kmsSigner(keys, ring, signs ? 'sign' : 'publish')),
      ...(settings.seedKeyId ? { seedVault: kmsSeedVault(keys, settings.seedKeyId) } : {}),
      leases: new DynamoGameLeases(client, tableName),
      // The commands function adds a sealed game's dice (conditional puts); the reads function answers GET /stats (a Query).
      publicStats: new DynamoPublicStats(client, tableName),
      // Every function reads snapshots; the one that commits writes them.
      snapshots: { store: new DynamoSnapshots(client, tableName), write: signs },
      ...(tokenMinter ? { tokenMinter, creationCounter: new DynamoCreationCounter(client, tableName) } : {}),
    },
  );
}
