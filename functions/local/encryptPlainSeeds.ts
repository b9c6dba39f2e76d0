import { ScanCommand, type ScanCommandOutput } from '@aws-sdk/client-dynamodb';
import type { SeedVault } from '../application/seedVault';
import type { EventStore, GameSecrets } from '../ports/eventStore';
import type { EmbeddedDynamo } from './embeddedDynamo';

/**
 * At start: seeds of games stored before seeds were encrypted are encrypted now, and seeds
 * kept in a game's secrets item (before seeds had an item of their own) move to their own
 * item, so that no copy of the data directory's store, taken later, holds them where the
 * readers are. Returns how many games it changed.
 */
export async function encryptPlainSeeds(dynamo: EmbeddedDynamo, store: EventStore, vault: SeedVault): Promise<number> {
  let moved = 0;
  let startKey: ScanCommandOutput['LastEvaluatedKey'];
  do {
    const page: ScanCommandOutput = await dynamo.client.send(
      new ScanCommand({ TableName: dynamo.tableName, FilterExpression: 'attribute_exists(secrets)', ExclusiveStartKey: startKey }),
    );
    for (const item of page.Items ?? []) {
      const { serverSeed, sealedSeed, ...rest } = JSON.parse(item.secrets.S!) as GameSecrets;
      if (serverSeed === undefined && sealedSeed === undefined) continue;
      const gameId = item.pk.S!.replace(/#secrets$/, '');
      await store.writeSeed(gameId, serverSeed !== undefined ? await vault.seal(gameId, Buffer.from(serverSeed, 'hex')) : sealedSeed!);
      await store.replaceSecrets(gameId, rest);
      moved += 1;
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return moved;
}
