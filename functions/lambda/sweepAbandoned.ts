import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { AbandonedGames } from '../application/abandonedGames';
import { required, settingName } from '../config/settings';
import { DynamoGameLeases, LEASE_KEY_PREFIX } from '../store/dynamoGameLeases';
import { dynamoClient } from './awsClients';
import { logger } from './powertools';
import { lambdaSettings } from './lambdaSettings';

let games: AbandonedGames | undefined;

/**
 * DynamoDB's TTL removed a game's lease (the stream's REMOVE by the service, picked out by
 * the event source's filter, infra/gameExpiry.ts): the game is swept (abandonedGames.ts). A
 * record whose sweep fails is reported, and the stream gives it again.
 */
export async function handler(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  if (!games) {
    const settings = lambdaSettings();
    // The stack deploys this function only when games expire.
    if (!settings.expiry) throw new Error(`${settingName('expiry')} is 0 or unset: games never expire, and nothing is swept`);
    games = new AbandonedGames(new DynamoGameLeases(dynamoClient(), required(settings, 'tableName'), settings.seedTableName), settings.expiry, () => new Date().toISOString());
  }
  const batchItemFailures: DynamoDBBatchResponse['batchItemFailures'] = [];
  for (const record of event.Records) {
    const pk = record.dynamodb?.Keys?.pk?.S;
    const removedByTtl = record.eventName === 'REMOVE' && record.userIdentity?.type === 'Service';
    if (!removedByTtl || !pk?.startsWith(LEASE_KEY_PREFIX)) continue;
    const gameId = pk.slice(LEASE_KEY_PREFIX.length);
    try {
      const outcome = await games.sweep(gameId);
      logger.info('lease ended', { gameId, outcome });
    } catch (error) {
      logger.error('sweep failed', { gameId, error: error as Error });
      batchItemFailures.push({ itemIdentifier: record.dynamodb?.SequenceNumber ?? '' });
    }
  }
  return { batchItemFailures };
}
