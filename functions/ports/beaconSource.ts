import type { BeaconChain } from '../../domain/beacon/chain';

export interface BeaconSource { round(chain: BeaconChain, round: number): Promise<{ round: number; signature: string }>; }
export class BeaconNotPublished extends Error {}
export class BeaconUnavailable extends Error {}
