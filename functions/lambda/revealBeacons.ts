import type { Context } from 'aws-lambda';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import type { BeaconRelay } from '../application/beaconRelay';
import type { BeaconSource } from '../ports/beaconSource';
import { required, settingName } from '../config/settings';
import { DynamoPendingReveals } from '../store/dynamoPendingReveals';
import { dynamoClient } from './awsClients';
import { beaconRevealHandler, type RevealEvent, type RevealSummary } from './beaconRevealHandler';
import { beaconAdapters, warmService } from './lambdaService';
import { lambdaSettings } from './lambdaSettings';
import { logger, metrics } from './powertools';
import { METRICS } from '../http/observe';

const pendingReveals = (): DynamoPendingReveals => new DynamoPendingReveals(dynamoClient(), required(lambdaSettings(), 'tableName'));
// The service that signs the reveals: the commands function's adapters, and those of beacon games.
const warm = warmService(beaconAdapters);
let relay: Promise<BeaconRelay> | undefined;
const RELAY_TIMEOUT_MS = 2_000;
const RELAY_PASSES = 2;
/** The longest one ask of the relays takes with the options below: every relay, twice, and the pause between the passes. */
const relayAskMs = (relays: number) => RELAY_PASSES * relays * RELAY_TIMEOUT_MS + 500;

const reveal = beaconRevealHandler({
  service: () => warm.service(),
  pendingReveals,
  entryAt: (keys) => pendingReveals().entryAt(keys),
  // One relay client per container: the rounds it verified stay cached. It and the BLS code that checks drand's
  // signatures (~65 KB) are loaded by the first round asked, not by a cold start.
  source: (): BeaconSource => ({ round: async (chain, round) => (await relayOfContainer()).round(chain, round) }),
  // The function stops waiting this long before its timeout: the ask in flight, then the reveal's append, end in it.
  marginMs: () => relayAskMs(lambdaSettings().drandRelays?.length ?? 1) + 5_000,
  onLate: () => {
    const single = metrics.singleMetric();
    single.addMetric(METRICS.beaconRevealLate, MetricUnit.Count, 1);
  },
});

function relayOfContainer(): Promise<BeaconRelay> {
  relay ??= (async () => {
    const relays = lambdaSettings().drandRelays;
    if (!relays?.length) throw new Error(`${settingName('drandRelays')} is unset: this function has no relay to ask`);
    const [{ BeaconRelay }, { beaconSignatureValid }] = await Promise.all([import('../application/beaconRelay'), import('../../domain/beacon/blsSignature')]);
    // Shorter asks than a server's, so that the one in flight at the deadline ends before Lambda stops the function.
    return new BeaconRelay({ relays, check: beaconSignatureValid, timeoutMs: RELAY_TIMEOUT_MS, attempts: RELAY_PASSES });
  })().catch((error: unknown) => {
    relay = undefined;
    throw error;
  });
  return relay;
}

/** The table's stream (new PendingReveals entries) and a schedule, every minute: beacon reveals on AWS (docs/deploy.md). */
export async function handler(event: RevealEvent, context: Context): Promise<RevealSummary> {
  logger.addContext(context);
  try {
    const summary = await reveal(event, context);
    logger.info('beacon reveals', { ...summary });
    return summary;
  } finally {
    metrics.publishStoredMetrics();
  }
}
