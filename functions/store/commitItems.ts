import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { Commit } from '../../domain/fairness/hashChain';
import type { GameHead } from '../../domain/trust/gameHead';

/** A lone commit's item: the commit as one JSON string attribute (byte-exact), its commandId beside it. */
export const commitItem = (commit: Commit, head?: GameHead): Record<string, AttributeValue> => ({
  pk: { S: commit.gameId },
  sk: { N: String(commit.seq) },
  commandId: { S: commit.commandId },
  commit: { S: JSON.stringify(commit) },
  ...(head ? { head: { S: JSON.stringify(head) } } : {}),
});

/** A group of commits in one item, keyed by its first seq (group commit: docs/append-protocol.md). */
export const groupItem = (commits: readonly Commit[], head?: GameHead): Record<string, AttributeValue> => ({
  pk: { S: commits[0].gameId },
  sk: { N: String(commits[0].seq) },
  lastSeq: { N: String(commits.at(-1)!.seq) },
  commandIds: { SS: commits.map((c) => c.commandId) },
  commits: { S: `[${commits.map((c) => JSON.stringify(c)).join(',')}]` },
  ...(head ? { head: { S: JSON.stringify(head) } } : {}),
});

/** The item that stores these consecutive commits: one commit as it always was, several as a group. */
export const appendItem = (commits: readonly Commit[], head?: GameHead) => (commits.length === 1 ? commitItem(commits[0], head) : groupItem(commits, head));

/** The commits an item holds: one (`commit`) or a group (`commits`). */
export function commitsOf(item: Record<string, AttributeValue>): Commit[] {
  if (item.commits?.S) return JSON.parse(item.commits.S) as Commit[];
  return item.commit?.S ? [JSON.parse(item.commit.S) as Commit] : [];
}
