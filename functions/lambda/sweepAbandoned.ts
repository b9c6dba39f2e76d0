import type { Context, DynamoDBBatchResponse, DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { AbandonedGames } from '../application/abandonedGames';
import { required, settingName } from '../config/settings';
import { DynamoGameLeases, LEASE_KEY_PREFIX, SWEEP_RETRY_SECONDS } from '../store/dynamoGameLeases';
import { dynamoClient } from './awsClients';
import { logger } from './powertools';
import { lambdaSettings } from './lambdaSettings';

/** Games swept at once in one invocation: a batch of 100 records is ten rounds of this many. */
export const SWEEP_CONCURRENCY = 10;
/** No new game is started with less than this left before the timeout: it is reported, and comes again. */
const TIME_RESERVE_MS = 20_000;

let swept: { games: AbandonedGames; leases: DynamoGameLeases } | undefined;

/**
 * DynamoDB's TTL removed games' leases (the stream's REMOVEs by the service, picked out by the
 * event source's filter, infra/gameExpiry.ts): each game is swept (abandonedGames.ts),
 * SWEEP_CONCURRENCY at a time. A game whose sweep fails gets its lease back, ending in
 * SWEEP_RETRY_SECONDS, and comes again then; only a record whose game could not even get its
 * lease back (or that time ran out for) is reported, and the stream gives it again. What
 * runs out of retries goes to the dead-letter queue (infra/gameExpiry.ts).
 */
export async function handler(event: DynamoDBStreamEvent, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<DynamoDBBatchResponse> {
  if (!swept) {
    const settings = lambdaSettings();
    // The stack deploys this function only when games expire.
    if (!settings.expiry) throw new Error(`${settingName('expiry')} is 0 or unset: games never expire, and nothing is swept`);
    const leases = new DynamoGameLeases(dynamoClient(), required(settings, 'tableName'), settings.seedTableName);
    swept = { leases, games: new AbandonedGames(leases, settings.expiry, () => new Date().toISOString()) };
  }
  const { games, leases } = swept;
  const failed = new Set<string>();
  const records = event.Records.filter(isLeaseEnded);
  let next = 0;
  const worker = async () => {
    while (next < records.length) {
      const record = records[next++];
      const sequence = record.dynamodb?.SequenceNumber ?? '';
      const gameId = record.dynamodb!.Keys!.pk!.S!.slice(LEASE_KEY_PREFIX.length);
      if (context && context.getRemainingTimeInMillis() < TIME_RESERVE_MS) {
        failed.add(sequence);
        continue;
      }
      try {
        const outcome = await games.sweep(gameId);
        logger.info('lease ended', { gameId, outcome });
      } catch (error) {
        try {
          await leases.arm(gameId, Math.floor(Date.now() / 1000) + SWEEP_RETRY_SECONDS);
          logger.error('sweep failed; the game comes again', { gameId, retryInSeconds: SWEEP_RETRY_SECONDS, error: error as Error });
        } catch (rearming) {
          logger.error('sweep failed', { gameId, error: error as Error, rearming: rearming as Error });
          failed.add(sequence);
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SWEEP_CONCURRENCY, records.length) }, worker));
  // In the stream's order: Lambda starts again from the first one reported.
  return { batchItemFailures: event.Records.filter((r) => failed.has(r.dynamodb?.SequenceNumber ?? '')).map((r) => ({ itemIdentifier: r.dynamodb?.SequenceNumber ?? '' })) };
}

/** A lease that TTL removed: the service's REMOVE of a `lease#` key (the event source's filter already keeps only these). */
function isLeaseEnded(record: DynamoDBRecord): boolean {
  return record.eventName === 'REMOVE' && record.userIdentity?.type === 'Service' && record.dynamodb?.Keys?.pk?.S?.startsWith(LEASE_KEY_PREFIX) === true;
}
