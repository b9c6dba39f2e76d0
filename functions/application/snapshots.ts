import { createHash } from 'node:crypto';
import type { GameState } from '../../domain/game/gameState';
import type { Ruleset } from '../../domain/ruleset';
import { loadedRuleset } from './rulesetLoader';
import type { Snapshot } from '../ports/snapshotStore';
export type { Snapshot, SnapshotStore } from '../ports/snapshotStore';

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

/** 2: the state holds voided commits, the ruleset's commits, the undo and the rulings, and the turn clock with its time per side as entries (issue 33); a snapshot of 1 is folded again. */
export const SNAPSHOT_FORMAT = 2;

/** How many commits between two snapshots (docs/benchmarks.md says how it was chosen). */
export const SNAPSHOT_INTERVAL = 100;

export const rulesetStamp = (ruleset: Ruleset) => `${ruleset.id}@${ruleset.stateVersion ?? 1}`;

/** The id of the ruleset a snapshot's stamp names: loaded (rulesetLoader.ts) before stateOf reads it. */
export const snapshotRulesetId = (snapshot: Pick<Snapshot, 'ruleset'>) => snapshot.ruleset.slice(0, Math.max(0, snapshot.ruleset.lastIndexOf('@')));

/**
 * The hashes of a game's commandIds, sorted and each once, and the seq up to which the
 * state's commandIds are among them: a warm process keeps it from one snapshot to the next,
 * so that each snapshot hashes only the commandIds since the last, not the whole game again.
 */
export interface CommandIdHashes {
  hashes: Uint32Array;
  throughSeq: number;
}

/**
 * The hashes of every commandId of the state: `olderCommandIds`, those its own map does not
 * hold (a state loaded from a snapshot holds only the recent ones), and its map's; with
 * `known`, those of a previous call on an earlier state of the same game, so that only the
 * commandIds after `known.throughSeq` are hashed.
 */
export function commandIdHashes(state: GameState, olderCommandIds: Uint32Array = new Uint32Array(), known?: CommandIdHashes): CommandIdHashes {
  const base = known ?? { hashes: olderCommandIds, throughSeq: 0 };
  const fresh: number[] = [];
  for (const [commandId, seq] of state.commandIds) if (seq > base.throughSeq) fresh.push(commandIdHash(commandId));
  const added = Uint32Array.from(fresh).sort();
  return { hashes: mergeOnce(known ? base.hashes : Uint32Array.from(base.hashes).sort(), added), throughSeq: state.version };
}

/** Two sorted lists as one, sorted, each value once. */
function mergeOnce(a: Uint32Array, b: Uint32Array): Uint32Array {
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i] <= b[j]) ? a[i++] : b[j++];
    if (n === 0 || out[n - 1] !== next) out[n++] = next;
  }
  return out.subarray(0, n);
}

/** The last RECENT_COMMAND_IDS commandIds by seq: in one pass over the map (it grows with the game), not a sort of it. */
function recentCommandIds(commandIds: GameState['commandIds'], version: number): [string, number][] {
  const wanted = Math.min(RECENT_COMMAND_IDS, commandIds.size);
  const recent: [string, number][] = [];
  for (const entry of commandIds) if (entry[1] > version - RECENT_COMMAND_IDS) recent.push(entry);
  // Every commit has its commandId, so the last seqs are all there; should one be missing, the whole map decides.
  const chosen = recent.length >= wanted ? recent : [...commandIds];
  return chosen.sort((a, b) => a[1] - b[1]).slice(-RECENT_COMMAND_IDS);
}

/** The snapshot of a state, with the hashes of all its commandIds (commandIdHashes). */
export function snapshotOf(state: GameState, hashes: CommandIdHashes = commandIdHashes(state)): Snapshot {
  const { ruleset, credentials, commandIds, voided, clock, ...rest } = state;
  const all = hashes.hashes;
  // Little-endian, 4 bytes a commandId.
  const bytes = Buffer.alloc(all.length * 4);
  for (let i = 0; i < all.length; i++) bytes.writeUInt32LE(all[i], 4 * i);
  return {
    format: SNAPSHOT_FORMAT,
    ruleset: rulesetStamp(ruleset),
    seq: state.version,
    hash: state.lastHash,
    state: JSON.stringify({
      ...rest,
      ruleset: ruleset.id,
      credentials: [...credentials],
      voided: [...voided],
      clock: { ...clock, usedMs: [...clock.usedMs] },
      recentCommandIds: recentCommandIds(commandIds, state.version),
      commandIdHashes: bytes.toString('base64'),
    }),
  };
}

/** The state a snapshot holds, or undefined when this code cannot trust it (another format or ruleset version, damaged, its ruleset not loaded). */
export function stateOf(gameId: string, snapshot: Snapshot): SnapshotState | undefined {
  if (snapshot.format !== SNAPSHOT_FORMAT) return undefined;
  try {
    const { recentCommandIds, commandIdHashes, clock, ...parsed } = JSON.parse(snapshot.state) as Omit<GameState, 'ruleset' | 'credentials' | 'commandIds' | 'voided' | 'clock'> & {
      ruleset: string;
      credentials: [string, string | null][];
      voided: [number, { by: number; reason: string }][];
      clock: Omit<GameState['clock'], 'usedMs'> & { usedMs: [string, number][] };
      recentCommandIds: [string, number][];
      commandIdHashes: string;
    };
    const ruleset = loadedRuleset(parsed.ruleset);
    if (!ruleset || rulesetStamp(ruleset) !== snapshot.ruleset) return undefined;
    if (parsed.gameId !== gameId || parsed.version !== snapshot.seq || parsed.lastHash !== snapshot.hash) return undefined;
    const bytes = Buffer.from(commandIdHashes, 'base64');
    if (bytes.length % 4 !== 0 || !Array.isArray(recentCommandIds) || !Array.isArray(parsed.voided) || !Array.isArray(parsed.rulesCommits) || !Array.isArray(clock?.usedMs)) return undefined;
    const olderCommandIds = new Uint32Array(bytes.length / 4);
    for (let i = 0; i < olderCommandIds.length; i++) olderCommandIds[i] = bytes.readUInt32LE(4 * i);
    return {
      state: { ...parsed, ruleset, credentials: new Map(parsed.credentials), voided: new Map(parsed.voided), commandIds: new Map(recentCommandIds), clock: { ...clock, usedMs: new Map(clock.usedMs) } },
      olderCommandIds,
    };
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
