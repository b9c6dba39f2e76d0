import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { dynamoClient, kmsClient } from './awsClients';
import { GameService } from '../application/gameService';
import { kmsSeedVault } from '../application/kmsSeedVault';
import { kmsSigner, type KmsKeyRing } from '../application/kmsSigner';
import { noSeedVault } from '../application/seedVault';
import { kmsTokenMinter } from '../application/tokenMinter';
import { DynamoEventStore } from '../store/dynamoStore';
import { DynamoGameLeases } from '../store/dynamoGameLeases';
import { DynamoSnapshots } from '../store/dynamoSnapshots';
import { DynamoCreationCounter } from '../store/dynamoCreationCounter';
import { CreationQuota, quotaPolicyOf } from '../application/creationQuota';
import { expiryPolicyOf } from '../application/gameExpiry';
import { KeyRingStore } from '../store/keyRingStore';
import { unavailableWhenTransient } from '../store/transientErrors';

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
  const tableName = requireEnv('TABLE_NAME');
  const client = dynamo();
  const ring = await unavailableWhenTransient(() => new KeyRingStore(client, tableName).read(requireEnv('SIGNING_KEY_ID')));
  const text = JSON.stringify(ring);
  if (previous && previous.ring === text) return { ...previous, checkedAt: Date.now() };
  return { service: await serviceFor(client, tableName, ring), ring: text, checkedAt: Date.now() };
}

async function serviceFor(client: DynamoDBClient, tableName: string, ring: KmsKeyRing): Promise<GameService> {
  const keys = kms();
  // Only the function that creates games, rolls and seals is given the seed key, and Sign.
  const signs = process.env.ARBITER_SIGNS === 'true';
  const seedKeyId = process.env.SEED_KEY_ID;
  const tokenKeyId = process.env.TOKEN_KEY_ID;
  const tokenMinter = tokenKeyId ? kmsTokenMinter(keys, tokenKeyId) : undefined;
  const quota = quotaPolicyOf(process.env.CREATION_QUOTA_PER_HOUR, 'CREATION_QUOTA_PER_HOUR');
  const now = () => new Date().toISOString();
  return new GameService({
    // DynamoDB on AWS has transactions: a game's items are created at once.
    store: new DynamoEventStore(client, tableName, { transactions: true }),
    signer: await unavailableWhenTransient(() => kmsSigner(keys, ring, signs ? 'sign' : 'publish')),
    seedVault: seedKeyId ? kmsSeedVault(keys, seedKeyId) : noSeedVault,
    now,
    // Every function tells when a game would be abandoned; only the commands function arms leases.
    expiry: expiryPolicyOf(process.env.ABANDONED_GAME_DAYS, 'ABANDONED_GAME_DAYS'),
    leases: new DynamoGameLeases(client, tableName),
    // Every function reads snapshots; the one that commits writes them.
    snapshots: { store: new DynamoSnapshots(client, tableName), write: signs },
    ...(tokenMinter ? { tokenMinter } : {}),
    ...(tokenMinter && quota ? { creationQuota: new CreationQuota(new DynamoCreationCounter(client, tableName), quota, now, tokenMinter.clientKey) } : {}),
  });
}

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
