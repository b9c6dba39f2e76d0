import { createHash } from 'node:crypto';
import type { GameState } from '../../domain/game/gameState';
import type { Ruleset } from '../../domain/ruleset';
import { findRuleset } from '../../domain/rulesets/registry';

/**
 * A snapshot: a game's folded state at one commit, so that a cold process reads it and only
 * the commits after it instead of the whole game. It is a cache, nothing more: never signed,
 * never exported, checked against the chain (the next commit's prevHash, or the commit it
 * names), and ignored when its format or its ruleset's state version differs from this
 * code's, when it is missing, unreadable or cut short — the game is then folded from commit 1
 * and the snapshot written again.
 */
export interface Snapshot {
  /** SNAPSHOT_FORMAT of the code that wrote it. */
  format: number;
  /** `<ruleset id>@<its stateVersion>`: a ruleset whose state changes shape bumps its version. */
  ruleset: string;
  /** The commit it folds to. */
  seq: number;
  hash: string;
  /** The state as JSON (Maps as entry lists, the ruleset by id; the commandIds as below). */
  state: string;
}

/**
 * A game's commandIds grow with it, and a retry must find any of them (fairness-v1 §5), so a
 * snapshot holds them in two parts: the last RECENT_COMMAND_IDS with their seqs (a retry comes
 * soon after its command), and a 32-bit hash of every commandId up to the snapshot, sorted (4
 * bytes a commit). A commandId that is in neither is new, with no read; one whose hash is
 * there but not its entry is looked up in the store (EventStore.findCommandId): an old retry,
 * or a hash collision (about one in a million at 10,000 commits).
 */
export const RECENT_COMMAND_IDS = 200;

export function commandIdHash(commandId: string): number {
  return createHash('sha256').update(commandId, 'utf8').digest().readUInt32BE(0);
}

/** Whether a sorted list of commandId hashes holds this commandId's. */
export function mayHoldCommandId(hashes: Uint32Array, commandId: string): boolean {
  const wanted = commandIdHash(commandId);
  let low = 0;
  let high = hashes.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    if (hashes[middle] === wanted) return true;
    if (hashes[middle] < wanted) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** The state a snapshot holds, and the hashes of the commandIds older than its recent ones. */
export interface SnapshotState {
  state: GameState;
  olderCommandIds: Uint32Array;
}

export const SNAPSHOT_FORMAT = 1;

/** How many commits between two snapshots (docs/benchmarks.md says how it was chosen). */
export const SNAPSHOT_INTERVAL = 100;

/** Where snapshots are kept: the store's own items, apart from commits. */
export interface SnapshotStore {
  read(gameId: string): Promise<Snapshot | undefined>;
  write(gameId: string, snapshot: Snapshot): Promise<void>;
}

export const rulesetStamp = (ruleset: Ruleset) => `${ruleset.id}@${ruleset.stateVersion ?? 1}`;

/**
 * The snapshot of a state. `olderCommandIds`: the hashes of commandIds the state's own map
 * does not hold (a state itself loaded from a snapshot holds only the recent ones).
 */
export function snapshotOf(state: GameState, olderCommandIds: Uint32Array = new Uint32Array()): Snapshot {
  const { ruleset, credentials, commandIds, ...rest } = state;
  const all = new Uint32Array(olderCommandIds.length + commandIds.size);
  all.set(olderCommandIds);
  let at = olderCommandIds.length;
  for (const commandId of commandIds.keys()) all[at++] = commandIdHash(commandId);
  all.sort();
  // Once each (a state loaded from a snapshot holds its recent commandIds twice: by entry and by hash), little-endian.
  const bytes = Buffer.alloc(all.length * 4);
  let count = 0;
  for (let i = 0; i < all.length; i++) if (i === 0 || all[i] !== all[i - 1]) bytes.writeUInt32LE(all[i], 4 * count++);
  const recent = [...commandIds].sort((a, b) => a[1] - b[1]).slice(-RECENT_COMMAND_IDS);
  return {
    format: SNAPSHOT_FORMAT,
    ruleset: rulesetStamp(ruleset),
    seq: state.version,
    hash: state.lastHash,
    state: JSON.stringify({
      ...rest,
      ruleset: ruleset.id,
      credentials: [...credentials],
      recentCommandIds: recent,
      commandIdHashes: bytes.subarray(0, 4 * count).toString('base64'),
    }),
  };
}

/** The state a snapshot holds, or undefined when this code cannot trust it (another format or ruleset version, damaged). */
export function stateOf(gameId: string, snapshot: Snapshot): SnapshotState | undefined {
  if (snapshot.format !== SNAPSHOT_FORMAT) return undefined;
  try {
    const { recentCommandIds, commandIdHashes, ...parsed } = JSON.parse(snapshot.state) as Omit<GameState, 'ruleset' | 'credentials' | 'commandIds'> & {
      ruleset: string;
      credentials: [string, string | null][];
      recentCommandIds: [string, number][];
      commandIdHashes: string;
    };
    const ruleset = findRuleset(parsed.ruleset);
    if (!ruleset || rulesetStamp(ruleset) !== snapshot.ruleset) return undefined;
    if (parsed.gameId !== gameId || parsed.version !== snapshot.seq || parsed.lastHash !== snapshot.hash) return undefined;
    const bytes = Buffer.from(commandIdHashes, 'base64');
    if (bytes.length % 4 !== 0 || !Array.isArray(recentCommandIds)) return undefined;
    const olderCommandIds = new Uint32Array(bytes.length / 4);
    for (let i = 0; i < olderCommandIds.length; i++) olderCommandIds[i] = bytes.readUInt32LE(4 * i);
    return { state: { ...parsed, ruleset, credentials: new Map(parsed.credentials), commandIds: new Map(recentCommandIds) }, olderCommandIds };
  } catch {
    return undefined;
  }
}

/** A snapshot is due when commits from `from` (exclusive) to `to` pass a multiple of `interval` (a group may step over one). */
export const snapshotDue = (from: number, to: number, interval = SNAPSHOT_INTERVAL) => Math.floor(from / interval) !== Math.floor(to / interval);

/**
 * Commits between two snapshots of this size: `interval`, or a multiple of it once the
 * snapshot passes `interval` KB (its list of commandIds grows with the game), so that writing
 * snapshots never costs more than about one write unit (1 KB) per command.
 */
export function snapshotSpacing(snapshot: Snapshot, interval = SNAPSHOT_INTERVAL): number {
  const kilobytes = new TextEncoder().encode(snapshot.state).length / 1024;
  return interval * Math.max(1, Math.ceil(kilobytes / interval));
}
