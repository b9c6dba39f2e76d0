import { LAMBDA_ENTRIES } from './bundling';
import { BEACON_ENTRIES } from './beaconReveals';
import { EXPORT_JOB_ENTRIES } from './exportJob';
import { EXPIRY_ENTRIES } from './gameExpiry';
import { NOTIFY_ENTRIES } from './notifications';
import { PUSH_ENTRIES } from './push';

/**
 * Every function the stack deploys, by its name in the stack, with its entry point: the six behind
 * the HTTP API and those beside them. The bundle tests and the bench size and time each of them
 * (a function added to the stack is added here).
 */
export const FUNCTION_ENTRIES: Readonly<Record<string, string>> = { ...LAMBDA_ENTRIES, ...PUSH_ENTRIES, ...EXPIRY_ENTRIES, ...BEACON_ENTRIES, ...NOTIFY_ENTRIES, ...EXPORT_JOB_ENTRIES };
