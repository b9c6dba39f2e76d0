import type { BeaconChain } from '../../domain/beacon/chain';
import type { Commit } from '../../domain/fairness/hashChain';
import { buildCommit } from '../../domain/game/buildCommit';
import { buildGameHead } from '../../domain/trust/gameHead';
import type { ExportBundle } from '../../domain/verify/exportBundle';
import { publicJwkOf, signWith, type StoredSigningKey } from '../../functions/application/signer';
import { buildBeaconGame } from '../support/beaconGame';
import { testBeaconChain } from '../support/testBeaconChain';

/**
 * The export after `edit` changed its commits, every commit and the head signed again with
 * the game's own key: seq, links, hashes and signatures all hold, so that only a beacon check
 * (or the rules, or the dice) can catch what was changed.
 */
export function resigned(bundle: ExportBundle, key: StoredSigningKey, edit: (commits: Commit[]) => Commit[] | void): ExportBundle {
  const copy = JSON.parse(JSON.stringify(bundle)) as ExportBundle;
  const edited = edit(copy.commits) ?? copy.commits;
  const sign = signWith(key);
  const kid = publicJwkOf(key).kid;
  const commits: Commit[] = [];
  for (const commit of edited) {
    commits.push(
      buildCommit(
        {
          gameId: copy.gameId,
          seq: commits.length + 1,
          prevHash: commits.at(-1)?.hash ?? '0'.repeat(64),
          commandId: commit.commandId,
          actor: commit.actor,
          viaOrganizer: commit.as === 'organizer',
          command: commit.command,
          events: commit.events,
          dice: commit.dice,
          recordedAt: commit.recordedAt,
          kid,
        },
        sign,
      ),
    );
  }
  const last = commits.at(-1)!;
  const sealed = commits.some((c) => c.events.some((e) => e.type === 'GameSealed'));
  const head = buildGameHead({ gameId: copy.gameId, seq: last.seq, lastHash: last.hash, sealed, at: last.recordedAt, kid }, sign);
  const result: ExportBundle = { ...copy, commits, head };
  if (!sealed) delete result.serverSeed;
  return JSON.parse(JSON.stringify(result)) as ExportBundle;
}

/** A chain of the tests' own (its own BLS key), at a fixed genesis so that its games are the same every run. */
export const TEST_CHAIN = testBeaconChain({ genesis: 1_750_000_000, period: 1 });

/** A sealed beacon game on the test chain, its rounds signed with the test chain's key. */
export function testChainGame(chain: BeaconChain = TEST_CHAIN.chain, sign: (round: number) => string = TEST_CHAIN.sign, gameId = 'g-test-chain') {
  return buildBeaconGame({ chain, gameId, beacons: [100, 200, 300, 400].map((round) => ({ round, signature: sign(round) })) });
}
