import { ScanCommand, type ScanCommandOutput } from '@aws-sdk/client-dynamodb';
import type { SeedVault } from '../application/seedVault';
import type { EventStore, GameSecrets } from '../store/eventStore';
import type { EmbeddedDynamo } from './embeddedDynamo';

/**
 * At start: seeds of games stored before seeds were encrypted are encrypted now, so that
 * no copy of the data directory's store, taken later, reveals them. Returns how many.
 */
export async function encryptPlainSeeds(dynamo: EmbeddedDynamo, store: EventStore, vault: SeedVault): Promise<number> {
  let encrypted = 0;
  let startKey: ScanCommandOutput['LastEvaluatedKey'];
  do {
    const page: ScanCommandOutput = await dynamo.client.send(
      new ScanCommand({ TableName: dynamo.tableName, FilterExpression: 'attribute_exists(secrets)', ExclusiveStartKey: startKey }),
    );
    for (const item of page.Items ?? []) {
      const { serverSeed, ...rest } = JSON.parse(item.secrets.S!) as GameSecrets;
      if (serverSeed === undefined) continue;
      const gameId = item.pk.S!.replace(/#secrets$/, '');
      await store.replaceSecrets(gameId, { ...rest, sealedSeed: vault.seal(gameId, Buffer.from(serverSeed, 'hex')) });
      encrypted += 1;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return encrypted;
}
