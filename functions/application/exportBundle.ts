import type { Commit } from '../../domain/fairness/hashChain';
import type { GameHead } from '../../domain/trust/gameHead';
import type { ExportBundle } from '../../domain/verify/verifyBundle';
import type { Signer } from '../ports/signer';

/** The GameSealed event of a game's commits, if it is sealed: it reveals the server seed. */
export function sealingOf(commits: readonly Commit[]) {
  for (const commit of commits) for (const event of commit.events) if (event.type === 'GameSealed') return event;
  return undefined;
}

/** A game's export (fairness-v1 §7): its commits, the keys and key log that sign them, and the head they end at. */
export function bundleOf(game: { gameId: string; ruleset: string; commitment: string }, commits: Commit[], head: GameHead, signer: Signer): ExportBundle {
  const sealing = sealingOf(commits);
  const { keys, log } = signer.keysDocument();
  return {
    ...game,
    commits,
    keys: { keys },
    keyLog: log,
    head,
    ...(sealing ? { serverSeed: String(sealing.data.serverSeed) } : {}),
  };
}
