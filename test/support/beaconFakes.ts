import { createHash } from 'node:crypto';
import { BLS_UNCHAINED_G1, roundTimeMs, type BeaconChain } from '../../domain/beacon/chain';
import { BeaconNotPublished, BeaconUnavailable, type BeaconSource } from '../../functions/ports/beaconSource';

/** A chain of the tests' own, 3 s rounds from midnight; its key is never checked by the planner (the relay checks BLS). */
export const FAKE_CHAIN: BeaconChain = {
  chain: 'fake',
  chainHash: 'ab'.repeat(32),
  publicKey: 'cd'.repeat(96),
  period: 3,
  genesis: Date.parse('2026-11-22T00:00:00.000Z') / 1000,
  scheme: BLS_UNCHAINED_G1,
};

/** A clock the test moves by hand. */
export class TestClock {
  constructor(public ms = Date.parse('2026-11-22T10:00:00.000Z')) {}
  readonly now = () => new Date(this.ms).toISOString();
  advance(ms: number): void {
    this.ms += ms;
  }
}

/** Any 48 bytes per round: the planner and the dice take the signature as given. */
export const fakeSignature = (round: number) => createHash('sha384').update(`round ${round}`).digest('hex');

/**
 * A BeaconSource that publishes a round once the test clock passes its time, and can be
 * taken down (BeaconUnavailable), as every relay being down looks.
 */
export class FakeBeaconSource implements BeaconSource {
  down = false;
  readonly asked: number[] = [];
  constructor(private readonly clock: TestClock) {}

  async round(chain: BeaconChain, round: number): Promise<{ round: number; signature: string }> {
    this.asked.push(round);
    if (this.down) throw new BeaconUnavailable('every relay is down');
    if (roundTimeMs(chain, round) > this.clock.ms) throw new BeaconNotPublished(`round ${round} is in the future`);
    return { round, signature: fakeSignature(round) };
  }
}

/** The reveals' waits: a real pause of a few ms, the test clock unmoved (the test moves it). */
export const shortWait = () => new Promise<void>((resolve) => setTimeout(resolve, 5));
