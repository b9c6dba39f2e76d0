import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GameService } from '../application/gameService';
import { signerFromKey, signingKeyFromSecret } from '../application/signer';
import { DynamoEventStore } from '../store/dynamoStore';
import { StoreUnavailable } from '../store/eventStore';

let service: Promise<GameService> | undefined;

/**
 * The service of a warm container: the signing secret is read once, on first use,
 * and kept in memory only. A failed read is retried by the next request.
 */
export function lambdaService(): Promise<GameService> {
  service ??= build().catch((error) => {
    service = undefined;
    throw error;
  });
  return service;
}

async function build(): Promise<GameService> {
  const tableName = requireEnv('TABLE_NAME');
  const secretId = requireEnv('SIGNING_KEY_SECRET_ARN');
  let secretText: string | undefined;
  try {
    const secret = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: secretId }));
    secretText = secret.SecretString;
  } catch (error) {
    throw new StoreUnavailable(error);
  }
  if (!secretText) throw new Error('the signing secret has no text');
  return new GameService({
    store: new DynamoEventStore(new DynamoDBClient({}), tableName),
    signer: signerFromKey(signingKeyFromSecret(secretText)),
  });
}

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
