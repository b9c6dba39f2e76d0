import type { BeaconChain } from '../../domain/beacon/chain';

/** A drand round's beacon, checked against its chain: what a reveal commit records (beacon.md §2.3). */
export interface VerifiedBeacon {
  round: number;
  /** The BLS signature, lowercase hex (48 bytes). */
  signature: string;
}

/** Where the server gets drand rounds (beacon.md §7): the relays, or a stand-in in tests. */
export interface BeaconSource {
  round(chain: BeaconChain, round: number): Promise<VerifiedBeacon>;
}

/** Every relay says the round is not out yet: ask again once its time has passed. */
export class BeaconNotPublished extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BeaconNotPublished';
  }
}

/** No relay gave a valid answer (down, a bad signature, bad JSON): ask again later. */
export class BeaconUnavailable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BeaconUnavailable';
  }
}
