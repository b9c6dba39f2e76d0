// SDK calls that hang are cut short (awsClients.ts): a push is retried by the client's catch-up, never waited on.
import { apiGatewayManagementClient, dynamoClient } from './awsClients';
import { GameService } from '../application/gameService';
import { noSeedVault } from '../application/seedVault';
import type { Signer } from '../application/signer';
import { DynamoEventStore } from '../store/dynamoStore';
import { DynamoSnapshots } from '../store/dynamoSnapshots';
import { apiGateway, type Gateway } from '../push/gateway';
import { DynamoSubscriptions } from '../push/subscriptionStore';

/**
 * What the push functions are built from. They sign nothing, open no seed and publish no
 * key: the service they hold only authorizes reads and reads commits.
 */
export const cannotSign: Signer = {
  kid: '',
  fingerprint: '',
  canSign: false,
  sign: () => Promise.reject(new Error('the push functions never sign')),
  publicJwks: () => [],
  keysDocument: () => ({ keys: [], log: [] }),
};

export function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

/** The game table, read as the reads function reads it (never a #seed item: IAM denies it, infra/push.ts). */
export const gameStore = () => new DynamoEventStore(dynamoClient(), requireEnv('TABLE_NAME'));

export const readService = (store: DynamoEventStore) =>
  new GameService({ store, signer: cannotSign, seedVault: noSeedVault, snapshots: { store: new DynamoSnapshots(dynamoClient(), requireEnv('TABLE_NAME')), write: false } });

export const subscriptionStore = () => new DynamoSubscriptions(dynamoClient(), requireEnv('CONNECTIONS_TABLE_NAME'));

/** The WebSocket stage's management endpoint (its callback URL, set by the stack). */
export const gateway = (): Gateway => apiGateway(apiGatewayManagementClient(requireEnv('PUSH_CALLBACK_URL')));
