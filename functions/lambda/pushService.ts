// SDK calls that hang are cut short (awsClients.ts): a push is retried by the client's catch-up, never waited on.
import { dynamoClient } from './awsClients';
import { signedGateway } from './pushSignedGateway';
import type { Signer } from '../application/signer';
import { compose } from '../compose';
import { required } from '../config/settings';
import { DynamoEventStore } from '../store/dynamoStore';
import { DynamoSnapshots } from '../store/dynamoSnapshots';
import type { Gateway } from '../push/gateway';
import { DynamoSubscriptions } from '../push/subscriptionStore';
import { lambdaSettings } from './lambdaSettings';

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

const tableName = () => required(lambdaSettings(), 'tableName');

/** The game table, read as the reads function reads it (never a #seed item: IAM denies it, infra/push.ts). */
export const gameStore = () => new DynamoEventStore(dynamoClient(), tableName());

export const readService = (store: DynamoEventStore) =>
  compose({}, { store, signer: cannotSign, snapshots: { store: new DynamoSnapshots(dynamoClient(), tableName()), write: false } });

export const subscriptionStore = () => new DynamoSubscriptions(dynamoClient(), required(lambdaSettings(), 'connectionsTableName'));

/** The WebSocket stage's management endpoint (its callback URL, set by the stack). */
export const gateway = (): Gateway => signedGateway(required(lambdaSettings(), 'pushCallbackUrl'));
