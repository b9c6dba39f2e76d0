import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadRuleset, RULESET_IDS } from '../../../functions/application/rulesetLoader';
import type { Commit } from '../../../domain/fairness/hashChain';
import { evolveGame, type GameState } from '../../../domain/game/gameState';
import { GameRepository as GameCache, type CachedGame } from '../../../functions/application/gameRepository';
import { GameService } from '../../../functions/application/gameService';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../../functions/application/signer';
import { commandIdHash, commandIdHashes, SNAPSHOT_FORMAT, snapshotOf, snapshotSpacing, stateOf } from '../../../functions/application/snapshots';
import type { EventStore } from '../../../functions/store/eventStore';
import { MemoryEventStore, MemorySnapshots } from '../../../functions/store/memoryStore';
import { memoryService } from '../../support/memoryService';
import { SCRIPT as EUROPA_SCRIPT } from '../../domain/rulesets/europa/samples';
import { withTestTable as EUROPA_OPTIONS } from '../../domain/rulesets/europa/harness';
import { declaration, options as warsAndBattlesOptions } from '../../domain/rulesets/warsandbattles/harness';

const INTERVAL = 10;

/** A store that counts the commits it hands out, and the look-ups of commandIds through the whole game. */
function counting(store: EventStore) {
  const counter = { commitsRead: 0, lookups: 0 };
  const wrapped = Object.create(store) as EventStore;
  wrapped.read = async (gameId, after, limit) => {
    const commits = await store.read(gameId, after, limit);
    counter.commitsRead += commits.length;
    return commits;
  };
  wrapped.findCommandId = async (gameId, commandId) => {
    counter.lookups += 1;
    return store.findCommandId(gameId, commandId);
  };
  return { store: wrapped, counter };
}

function services() {
  const store = new MemoryEventStore();
  const snapshots = new MemorySnapshots();
  const key = generateSigningKey();
  const seedVault = aesSeedVault(newSeedKey());
  const make = (use: 'snapshots' | 'none', over: EventStore = store) =>
    new GameService({
      store: over,
      signer: signerFromKey(key),
      seedVault,
      now: () => '2026-11-23T10:00:00.000Z',
      newGameId: () => 'g-snapshot-1',
      randomSeed: () => Buffer.alloc(32, 9),
      ...(use === 'snapshots' ? { snapshots: { store: snapshots, write: true, interval: INTERVAL } } : {}),
    });
  return { store, snapshots, make };
}

const roll = (n: number) => ({ commandId: `r${n}`, type: 'Roll', payload: { dice: '2d6', purpose: `roll ${n}` } });

/** A game of `rolls` rolls played by a service that writes snapshots. */
async function playedGame(rolls: number) {
  const env = services();
  const writer = env.make('snapshots');
  const game = await writer.createGame({ ruleset: 'dice' });
  const token = game.tokens.players.player1;
  for (let n = 1; n <= rolls; n++) await writer.submit(game.gameId, token, roll(n));
  return { ...env, game, token };
}

// The service reads a game's ruleset once it has loaded it (rulesetLoader.ts); these games are folded with the domain's registry.
beforeAll(async () => {
  for (const id of RULESET_IDS) await loadRuleset(id);
});

describe('snapshots', () => {
  it('are written every interval of commits, and a cold process reads the last one and only the commits after it', async () => {
    const { store, snapshots, make, game, token } = await playedGame(24);
    expect(snapshots.writes).toBe(2);
    expect((await snapshots.read(game.gameId))!.seq).toBe(20);
    const cold = counting(store);
    const outcome = await make('snapshots', cold.store).submit(game.gameId, token, roll(25));
    expect(cold.counter.commitsRead).toBe(5);
    // The same commit a process folding from commit 1 decides (same seed, same time).
    const fromScratch = counting(store);
    const replay = await make('none', fromScratch.store).submit(game.gameId, token, roll(25));
    expect(replay.created).toBe(false);
    expect(replay.commit).toEqual(outcome.commit);
    expect(fromScratch.counter.commitsRead).toBe(26 + 1);
  });

  it('decide exactly as a full fold does: the next command of a cold process with a snapshot equals that of one without', async () => {
    const a = await playedGame(30);
    const b = await playedGame(30);
    b.snapshots.stored.clear();
    const withSnapshot = await a.make('snapshots').submit(a.game.gameId, a.token, roll(31));
    const without = await b.make('none').submit(b.game.gameId, b.token, roll(31));
    expect(withSnapshot.commit.dice).toEqual(without.commit.dice);
    expect(withSnapshot.state.rules).toEqual(without.state.rules);
    expect([...withSnapshot.state.commandIds]).toEqual([...without.state.commandIds]);
  });

  it('are ignored, folded from commit 1 and written again, when their format or ruleset version differs, when damaged, or when they do not chain into the commits', async () => {
    const spoilers: [string, (text: string) => string][] = [
      ['another format', (t) => JSON.stringify({ ...JSON.parse(t), format: SNAPSHOT_FORMAT + 1 })],
      ['another ruleset state version (dice@1: the state before it held the rulesVersion)', (t) => JSON.stringify({ ...JSON.parse(t), ruleset: 'dice@1' })],
      ['a state that is not JSON', (t) => JSON.stringify({ ...JSON.parse(t), state: '{"cut' })],
      ['a hash the chain does not have', (t) => JSON.stringify({ ...JSON.parse(t), hash: 'ab'.repeat(32), state: JSON.parse(t).state.replace(/"lastHash":"[0-9a-f]+"/, `"lastHash":"${'ab'.repeat(32)}"`) })],
      ['rules changed in it', (t) => JSON.stringify({ ...JSON.parse(t), state: JSON.parse(t).state.replace('"rolls":19', '"rolls":990') })],
    ];
    for (const [why, spoil] of spoilers) {
      const { store, snapshots, make, game, token } = await playedGame(22);
      snapshots.stored.set(game.gameId, spoil(snapshots.stored.get(game.gameId)!));
      const writes = snapshots.writes;
      const cold = counting(store);
      const service = make('snapshots', cold.store);
      const view = await service.view(game.gameId, token);
      if (why === 'rules changed in it') {
        // Checked against the chain, not against its content: the state it claims is taken (the snapshot is the server's own cache).
        expect(view.state).toMatchObject({ rolls: 993 });
        continue;
      }
      expect(view.state, why).toMatchObject({ rolls: 22 });
      expect(cold.counter.commitsRead, why).toBeGreaterThanOrEqual(23);
      expect(snapshots.writes, why).toBe(writes + 1);
      expect(stateOf(game.gameId, (await snapshots.read(game.gameId))!), why).toBeDefined();
    }
  });

  it('are never part of an export: the export of a game with snapshots is byte for byte the one without', async () => {
    const a = await playedGame(12);
    const withSnapshots = await a.make('snapshots').exportBundle(a.game.gameId, a.token);
    const without = await a.make('none').exportBundle(a.game.gameId, a.token);
    expect(JSON.stringify(withSnapshots)).toBe(JSON.stringify(without));
    expect(JSON.stringify(withSnapshots)).not.toContain('"format"');
  });

  it("hold the turn clock: a game loaded from a snapshot has the clock of the full fold, each side's time and whose move it is", async () => {
    const times = ['10:00:00', '10:00:30', '10:02:00', '10:07:15.5', '10:08:00'].map((t) => `2026-11-27T${t}Z`);
    let step = 0;
    const service = new GameService({ store: new MemoryEventStore(), signer: signerFromKey(generateSigningKey()), seedVault: aesSeedVault(newSeedKey()), now: () => new Date(times[step++]).toISOString(), newGameId: () => 'g-clock', randomSeed: () => Buffer.alloc(32, 3) });
    const game = await service.createGame({ ruleset: 'dice', options: { sides: ['red', 'blue'] } });
    const { red, blue } = game.tokens.players;
    await service.submit(game.gameId, red, roll(1));
    await service.submit(game.gameId, red, { commandId: 'p1', type: 'PassTurn', payload: { to: 'blue' } });
    await service.submit(game.gameId, blue, roll(2));
    const last = await service.submit(game.gameId, blue, { commandId: 'p2', type: 'PassTurn', payload: { to: 'red' } });
    const held = stateOf(game.gameId, JSON.parse(JSON.stringify(snapshotOf(last.state))))!;
    expect(held.state.clock).toEqual(last.state.clock);
    expect(held.state.clock).toEqual({ toMove: 'red', since: '2026-11-27T10:08:00.000Z', usedMs: new Map([['red', 120_000], ['blue', 360_000]]) });
  });

  it('hold the state of every ruleset exactly: a snapshot at any commit, folded on, ends where the full fold ends', () => {
    for (const ruleset of ['france44', 'memoir44', 'normandy44']) {
      const { bundle } = JSON.parse(readFileSync(new URL(`../../domain/rulesets/${ruleset}/fixtures/game-before-issue-19.json`, import.meta.url), 'utf8')) as { bundle: { commits: Commit[] } };
      let full: GameState | undefined;
      for (const commit of bundle.commits) full = evolveGame(full, commit);
      for (let at = 1; at <= bundle.commits.length; at++) {
        let state: GameState | undefined;
        for (const commit of bundle.commits.slice(0, at)) state = evolveGame(state, commit);
        const held = stateOf(state!.gameId, JSON.parse(JSON.stringify(snapshotOf(state!))))!;
        expect(held, `${ruleset} at ${at}`).toBeDefined();
        let resumed = held.state;
        for (const commit of bundle.commits.slice(at)) resumed = evolveGame(resumed, commit);
        expect(snapshotOf(resumed, commandIdHashes(resumed, held.olderCommandIds)), `${ruleset} at ${at}`).toEqual(snapshotOf(full!));
      }
    }
  });
});

/** A game of a ruleset played through the service with its own dice (steps the dice make impossible are skipped): its commits. */
async function playedCommits(ruleset: string, options: unknown, steps: readonly (readonly [actor: string, type: string, payload?: unknown, ...rest: unknown[]])[]) {
  const { service, store } = memoryService(`snapshot-${ruleset}`);
  const game = await service.createGame({ ruleset, options });
  const tokens: Record<string, string> = { ...game.tokens.players, organizer: game.tokens.organizer };
  for (const [i, [actor, type, payload = {}]] of steps.entries()) {
    await service.submit(game.gameId, tokens[actor], { commandId: `s${i}`, type, payload }).catch((error: { code?: string }) => {
      if (error.code !== 'rule_violation') throw error;
    });
  }
  return store.read(game.gameId, 0);
}

describe('snapshots of the rulesets that take tables as data', () => {
  it('hold their state exactly: a snapshot at any commit, folded on, ends where the full fold ends', async () => {
    const games = [
      await playedCommits('europa', EUROPA_OPTIONS, EUROPA_SCRIPT),
      await playedCommits('wars-and-battles', warsAndBattlesOptions({ impulses: 2 }), [
        ['allied', 'Activate', { unitIds: ['us-inf-1', 'us-arm'] }],
        ['allied', 'DeclareAttack', declaration('a1', { attackers: [{ unitId: 'us-inf-1', hex: '0811' }, { unitId: 'us-arm', hex: '0811' }] })],
        ['allied', 'ResolveAttack', { attackId: 'a1', retreats: [{ unitId: 'gr-916', route: 'enemy-zoc' }] }],
        ['allied', 'EndImpulse'],
        ['axis', 'Bombard', { targetHex: '0811', targets: ['us-inf-2'], bombarders: [{ unitId: 'de-art', points: 15 }], identification: 'identified' }],
        ['axis', 'EndImpulse'],
        ['allied', 'EndImpulse'],
        ['axis', 'EndImpulse'],
        ['organizer', 'EndTurn', { outOfSupply: ['gr-914'] }],
      ]),
    ];
    for (const commits of games) {
      expect(commits.length).toBeGreaterThan(8);
      let full: GameState | undefined;
      for (const commit of commits) full = evolveGame(full, commit);
      for (let at = 1; at <= commits.length; at++) {
        let state: GameState | undefined;
        for (const commit of commits.slice(0, at)) state = evolveGame(state, commit);
        const held = stateOf(state!.gameId, JSON.parse(JSON.stringify(snapshotOf(state!))))!;
        let resumed = held.state;
        for (const commit of commits.slice(at)) resumed = evolveGame(resumed, commit);
        expect(snapshotOf(resumed, commandIdHashes(resumed, held.olderCommandIds)), `${full!.ruleset.id} at ${at}`).toEqual(snapshotOf(full!));
      }
    }
  });
});

describe('the commandIds of a game loaded from a snapshot', () => {
  it('answer a retry of any earlier command with its stored commit: recent ones from the snapshot, older ones looked up in the store', async () => {
    const { store, snapshots, make, game, token } = await playedGame(259);
    expect((await snapshots.read(game.gameId))!.seq).toBe(260);
    const cold = counting(store);
    const service = make('snapshots', cold.store);
    // Recent (seq 250): answered from the snapshot's own list.
    const recent = await service.submit(game.gameId, token, roll(249));
    expect(recent).toMatchObject({ created: false, version: 260 });
    expect(recent.commit.seq).toBe(250);
    expect(cold.counter.lookups).toBe(0);
    // A new command: its commandId's hash is not in the snapshot, so nothing is looked up.
    expect((await service.submit(game.gameId, token, roll(260))).created).toBe(true);
    expect(cold.counter.lookups).toBe(0);
    // Older than the recent ones (seq 6): looked up once, then known.
    const old = await service.submit(game.gameId, token, roll(5));
    expect(old).toMatchObject({ created: false });
    expect(old.commit.seq).toBe(6);
    expect(old.commit.commandId).toBe('r5');
    await service.submit(game.gameId, token, roll(5));
    expect(cold.counter.lookups).toBe(1);
    // The same commandId with another command is refused, old or not.
    await expect(service.submit(game.gameId, token, { ...roll(7), payload: { dice: '3d6', purpose: 'other' } })).rejects.toMatchObject({ code: 'command_id_reused' });
  });

  it('are written while the next commands go on: a slow snapshot write holds back no command, and idle() waits for it', async () => {
    const { store, snapshots } = services();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = Object.create(snapshots) as MemorySnapshots;
    let written = 0;
    slow.write = async (gameId, snapshot) => {
      await held;
      await snapshots.write(gameId, snapshot);
      written += 1;
    };
    const service = new GameService({ store, signer: signerFromKey(generateSigningKey()), seedVault: aesSeedVault(newSeedKey()), snapshots: { store: slow, write: true, interval: INTERVAL } });
    const game = await service.createGame({ ruleset: 'dice' });
    const token = game.tokens.players.player1;
    // Commit 10 makes a snapshot due; the commands after it are answered while it is being written.
    const play = (async () => {
      for (let n = 1; n <= INTERVAL + 5; n++) await service.submit(game.gameId, token, roll(n));
      return 'answered';
    })();
    const waited = new Promise((resolve) => setTimeout(() => resolve('held back by the snapshot write'), 5000).unref());
    expect(await Promise.race([play, waited])).toBe('answered');
    expect(written).toBe(0);
    let idle = false;
    const idling = service.idle().then(() => (idle = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(idle).toBe(false);
    release();
    await idling;
    expect(written).toBe(1);
    expect((await snapshots.read(game.gameId))?.seq).toBe(INTERVAL);
  });

  it('keep a snapshot small: 4 bytes a commit for the hashes, and only the recent commandIds in full', async () => {
    const { snapshots, game } = await playedGame(999);
    const snapshot = (await snapshots.read(game.gameId))!;
    const parsed = JSON.parse(snapshot.state);
    expect(parsed.recentCommandIds).toHaveLength(200);
    expect(Buffer.from(parsed.commandIdHashes, 'base64').length).toBe(4 * 1000);
    expect(snapshot.state.length).toBeLessThan(4 * 1000 * 1.34 + 200 * 30 + 2000);
  });
});

describe('the commandId hashes of a snapshot', () => {
  /** The state after each of a game's commits. */
  async function states(rolls: number): Promise<GameState[]> {
    const { store, game } = await playedGame(rolls);
    const out: GameState[] = [];
    let state: GameState | undefined;
    for (const commit of await store.read(game.gameId, 0)) out.push((state = evolveGame(state && { ...state, commandIds: new Map(state.commandIds) }, commit)));
    return out;
  }

  it('are hashed once each: the next snapshot of a warm game hashes only the commandIds since the last one', async () => {
    const all = await states(40);
    const at20 = all[19];
    const at40 = all[39];
    const known = commandIdHashes(at20);
    expect(known.throughSeq).toBe(20);
    // Built on what was known at 20, the list at 40 equals the one hashed from scratch.
    expect([...commandIdHashes(at40, undefined, known).hashes]).toEqual([...commandIdHashes(at40).hashes]);
    // And nothing up to 20 is hashed again: stand-ins for the first 20 stay, the 20 after are added.
    const standIns = { hashes: Uint32Array.from([1, 2, 3]), throughSeq: 20 };
    const since = [...at40.commandIds].filter(([, seq]) => seq > 20).map(([id]) => commandIdHash(id));
    expect([...commandIdHashes(at40, undefined, standIns).hashes]).toEqual([1, 2, 3, ...since].sort((a, b) => a - b));
  });

  it('are kept by the cache from one snapshot to the next: the next snapshot adds the commandIds since to what it kept', async () => {
    const all = await states(30);
    const snapshots = new MemorySnapshots();
    const cache = new GameCache(new MemoryEventStore(), 10, true, { store: snapshots, write: true, interval: INTERVAL });
    // Writable here, standing in for the repository's own changes to the game.
    const game: { -readonly [K in keyof CachedGame]: CachedGame[K] } = { state: all[19], secrets: { tokenHashes: { organizer: '', players: {} } } };
    cache.committed(game, 19);
    await cache.idle();
    expect(game.commandIdHashes?.throughSeq).toBe(20);
    // What it kept is what the next snapshot starts from: stand-ins for the first 20 show that they are not hashed again.
    game.commandIdHashes = { hashes: Uint32Array.from([7, 8, 9]), throughSeq: 20 };
    game.state = all[29];
    cache.committed(game, 29);
    await cache.idle();
    const written = (await snapshots.read(game.state.gameId))!;
    expect(written.seq).toBe(30);
    const hashes = Buffer.from(JSON.parse(written.state).commandIdHashes, 'base64');
    const since = [...all[29].commandIds].filter(([, seq]) => seq > 20).map(([id]) => commandIdHash(id));
    expect(Array.from({ length: hashes.length / 4 }, (_, i) => hashes.readUInt32LE(4 * i))).toEqual([7, 8, 9, ...since].sort((a, b) => a - b));
  });

  it('written by a warm process, equal those of a full fold, also after an old retry was looked up in the store', async () => {
    const { store, snapshots, make, game, token } = await playedGame(259);
    // A cold process: loaded from the snapshot at 260, it learns an old commandId from the store (seq 6), then plays past two snapshots.
    const service = make('snapshots');
    expect((await service.submit(game.gameId, token, roll(5))).commit.seq).toBe(6);
    for (let n = 260; n < 280; n++) await service.submit(game.gameId, token, roll(n));
    await service.idle();
    const written = (await snapshots.read(game.gameId))!;
    expect(written.seq).toBe(280);
    let full: GameState | undefined;
    for (const commit of await store.read(game.gameId, 0)) full = evolveGame(full, commit);
    expect(written).toEqual(snapshotOf(full!));
  });
});

describe('the spacing of snapshots', () => {
  it('is the interval while a snapshot is small, and grows with it so that snapshots never cost more than about 1 KB of writes per command', () => {
    const sized = (kilobytes: number) => ({ format: SNAPSHOT_FORMAT, ruleset: 'dice@1', seq: 1, hash: '', state: 'x'.repeat(kilobytes * 1024) });
    expect(snapshotSpacing(sized(1), 100)).toBe(100);
    expect(snapshotSpacing(sized(100), 100)).toBe(100);
    expect(snapshotSpacing(sized(101), 100)).toBe(200);
    expect(snapshotSpacing(sized(450), 100)).toBe(500);
    for (const kilobytes of [1, 99, 150, 450, 2000]) expect(kilobytes / snapshotSpacing(sized(kilobytes), 100)).toBeLessThanOrEqual(1);
  });
});
