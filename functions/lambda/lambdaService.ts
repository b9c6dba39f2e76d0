import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { createHash } from 'node:crypto';
import { GameService } from '../application/gameService';
import { aesSeedVault, noSeedVault } from '../application/seedVault';
import { keyRingFromSecret, signerFromKeyRing } from '../application/signer';
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
  const secrets = new SecretsManagerClient({});
  const signingText = await secretText(secrets, requireEnv('SIGNING_KEY_SECRET_ARN'));
  // Only the function that creates games and rolls is given the seed key's secret.
  const seedKeyArn = process.env.SEED_KEY_SECRET_ARN;
  const seedVault = seedKeyArn ? aesSeedVault(createHash('sha256').update(await secretText(secrets, seedKeyArn), 'utf8').digest()) : noSeedVault;
  return new GameService({
    store: new DynamoEventStore(new DynamoDBClient({}), tableName),
    signer: signerFromKeyRing(keyRingFromSecret(signingText)),
    seedVault,
  });
}

async function secretText(client: SecretsManagerClient, secretId: string): Promise<string> {
  let text: string | undefined;
  try {
    text = (await client.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString;
  } catch (error) {
    throw new StoreUnavailable(error);
  }
  if (!text) throw new Error('a secret of the stack has no text');
  return text;
}

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}
