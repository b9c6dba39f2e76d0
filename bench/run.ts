// `npm run bench`: measures the service against its floors, in one run, and writes
// bench/results.md and bench/results.json. Loopback only; every loop bounded.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { fork } from 'node:child_process';
import { createHmac, randomBytes, sign, verify, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DiceStream } from '../domain/fairness/diceStream';
import { evolveGame, type GameState } from '../domain/game/gameState';
import { verifyBundle } from '../domain/verify/verifyBundle';
import { evaluateProcedure } from '../functions/application/evaluate';
import { compose } from '../functions/compose';
import { MAX_GROUP } from '../functions/application/groupCommit';
import { aesSeedVault, newSeedKey } from '../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../functions/application/signer';
import { createHandlers } from '../functions/http/handlers';
import { startEmbeddedDynamo } from '../functions/local/embeddedDynamo';
import { createLocalServer } from '../functions/local/httpAdapter';
import { localVerifierSource } from '../functions/local/verifierSource';
import { DynamoSnapshots } from '../functions/store/dynamoSnapshots';
import { SNAPSHOT_INTERVAL } from '../functions/application/snapshots';
import { DynamoEventStore } from '../functions/store/dynamoStore';
import { MemoryEventStore, MemorySnapshots } from '../functions/store/memoryStore';
import type { BenchRow } from './benchRow';
import { bundleRows } from './bundleLoad';
import { countCalls } from './countingClient';
import type { LoadRequest } from './loadClient';
import { combined, load, percentile, rate, type LoadResult } from './measure';

const seedVault = aesSeedVault(newSeedKey());

type Row = BenchRow;
const rows: Row[] = [];
const started = performance.now();
const log = (line: string) => console.log(`[${((performance.now() - started) / 1000).toFixed(1)}s] ${line}`);
function record(row: Row) {
  rows.push(row);
  log(`${row.section}: ${row.figure} = ${row.value.toFixed(2)} ${row.unit}${row.ratio !== undefined ? ` (ratio ${row.ratio.toFixed(2)})` : ''}${row.pass === undefined ? '' : row.pass ? ' PASS' : ' MISS'}`);
}
// `npm run bench -- http cost` runs only those sections and prints them; results are written by a whole run.
const only = process.argv.slice(2);
const runs = (section: string) => only.length === 0 || only.includes(section);
const quiet = { unexpected: (e: Error) => console.error(e) };
const noop = () => {};

// 1. Dice
if (runs('dice')) {
  const key = randomBytes(32);
  let c = 0;
  const hmacBlocks = rate(() => void createHmac('sha256', key).update(`7:${c++}`, 'ascii').digest(), 1.5);
  const words = hmacBlocks * 8;
  let stream = new DiceStream(key, 1);
  let n = 0;
  const d6 = rate(() => {
    stream.roll(6);
    if (++n % 1000 === 0) stream = new DiceStream(key, n);
  }, 1.5);
  record({ section: 'Dice', figure: 'fairness-v1 d6 per second', value: d6, unit: '/s', floor: { name: 'raw HMAC-SHA256 output, 32-bit words per second', value: words }, ratio: d6 / words, target: '≥ 0.5', pass: d6 / words >= 0.5 });
}

// 2. Rules (pure domain, the /evaluate path)
if (runs('rules')) {
  const floor = rate(() => void evaluateProcedure('dice', { procedure: 'roll', input: { dice: '1d6' }, dice: [3] }), 1, 20);
  const cases: [string, string, unknown, number[]][] = [
    ['france44', 'combat', { kind: 'set-piece', attackers: [{ strength: 6 }, { strength: 4 }, { strength: 3, hq: true }], defenders: [{ strength: 5 }, { strength: 2, outOfSupply: true }], attackerMorale: 4, defenderMorale: 3, terrainMoraleModifiers: [1, 2], otherMoraleModifiers: [{ source: 'heavy bombing', value: -2 }] }, [4]],
    ['normandy44', 'combat', { attackerSide: 'german', weather: 'clear', defenderHex: { terrain: 'bocage', hilltop: true }, attackers: [{ factors: 8, mainAttackForce: true, hexside: 'minor-river' }, { factors: 6, mainAttackForce: false }], defenders: [{ factors: 4, steps: 3 }], shifts: { armorAdvantage: 'attacker', airSupport: 1 } }, [5, 3]],
    ['memoir44-d6', 'battle', { attacker: { type: 'armor', figures: 3 }, target: { type: 'armor', figures: 3, terrain: 'hedgerow' }, range: 2 }, [6, 5, 4, 6, 1, 2, 5, 6, 2]],
    ['dice', 'roll', { dice: '3d6+1' }, [1, 2, 3]],
  ];
  for (const [ruleset, procedure, input, dice] of cases) {
    const value = rate(() => void evaluateProcedure(ruleset, { procedure, input, dice }), 1, 20);
    record({ section: 'Rules', figure: `${ruleset} ${procedure} resolutions per second`, value, unit: '/s', floor: { name: 'the same path rolling 1d6 (dice ruleset)', value: floor }, ratio: value / floor });
  }
}

// 3. Replay and verify a 10,000-commit game
if (runs('verify')) {
  const key = generateSigningKey();
  const store = new MemoryEventStore();
  const service = compose({}, { store, signer: signerFromKey(key), seedVault });
  const game = await service.createGame({ ruleset: 'dice' });
  const token = game.tokens.players.player1;
  for (let i = 0; i < 9_998; i++) await service.submit(game.gameId, token, { commandId: `r${i}`, type: 'Roll', payload: { dice: '2d6', purpose: 'bench' } });
  await service.submit(game.gameId, game.tokens.organizer, { commandId: 'seal', type: 'Seal', payload: {} });
  const bundle = await service.exportBundle(game.gameId, token);
  const commits = bundle.commits;
  let t = performance.now();
  let state: GameState | undefined;
  for (const commit of commits) state = evolveGame(state, commit);
  const foldPerSecond = commits.length / ((performance.now() - t) / 1000);
  // Best of two passes: the first also warms the JIT, as the floor's own loop does.
  let verifyPerSecond = 0;
  let report = verifyBundle(bundle);
  for (let pass = 0; pass < 2; pass++) {
    t = performance.now();
    report = verifyBundle(bundle);
    verifyPerSecond = Math.max(verifyPerSecond, commits.length / ((performance.now() - t) / 1000));
  }
  if (!report.ok) throw new Error(`the bench game does not verify: ${JSON.stringify(report.failures[0])}`);
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const message = randomBytes(32);
  const signature = sign(null, message, privateKey);
  const ed25519 = rate(() => void verify(null, message, publicKey, signature), 1.5, 50);
  const texts = commits.map((c) => JSON.stringify(c));
  t = performance.now();
  for (const text of texts) JSON.parse(text);
  const parsePerSecond = texts.length / ((performance.now() - t) / 1000);
  record({ section: 'Replay and verify', figure: `fold ${commits.length} commits, commits per second`, value: foldPerSecond, unit: '/s', floor: { name: 'JSON.parse of each stored commit', value: parsePerSecond }, ratio: foldPerSecond / parsePerSecond });
  record({ section: 'Replay and verify', figure: `verify the export (hashes, signatures, ${report.checkedDice} dice, rules), commits per second, best of 2 passes`, value: verifyPerSecond, unit: '/s', floor: { name: 'Ed25519 verifications per second, one core', value: ed25519 }, ratio: verifyPerSecond / ed25519, target: '≥ 0.7', pass: verifyPerSecond / ed25519 >= 0.7 });
}

// 4, 6. HTTP commands and polling through the local server, against their floors
if (runs('http')) {
  const dynamo = await startEmbeddedDynamo({ thread: true });
  // As `npm start` runs it: the only writer of its embedded store, which answers on a thread of its own, with group commit
  // and snapshots.
  const store = new DynamoEventStore(dynamo.client, dynamo.tableName, { groups: true });
  const snapshots = { store: new DynamoSnapshots(dynamo.client, dynamo.tableName), write: true };
  const service = compose({}, { store, signer: signerFromKey(generateSigningKey()), seedVault, soleWriter: true, maxGroup: MAX_GROUP, snapshots });
  const server = createLocalServer(createHandlers(service, localVerifierSource, quiet));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const postTo = (base: string, path: string, body: unknown, token?: string) =>
    fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  const post = (path: string, body: unknown, token?: string) => postTo(url, path, body, token);
  const newGameAt = async (base: string) => (await (await postTo(base, '/games', { ruleset: 'dice' })).json()) as { gameId: string; tokens: { players: { player1: string } } };
  const newGame = () => newGameAt(url);
  const concurrency = 16;
  // Measured commands to one game, to 50 games, and floor puts: as many of each, in rounds (below). A round of 1,000 moves
  // by up to a tenth with the machine; six of them together by a few hundredths.
  const total = 6000;
  // One command at a time: 2,000, so that the p99 is the 20th slowest, not the 4th of 400.
  const sequentialTotal = 2000;
  // The load comes from its own process, as a real client's would: its HTTP work is not the server's.
  const client = fork(new URL('loadClient.ts', import.meta.url), { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  let asked = 0;
  const remoteLoad = (request: LoadRequest) =>
    new Promise<LoadResult>((resolve, reject) => {
      const id = ++asked;
      const answer = (message: { id: number; result?: LoadResult; error?: string }) => {
        if (message.id !== id) return;
        client.off('message', answer);
        if (message.result) resolve(message.result);
        else reject(new Error(message.error));
      };
      client.on('message', answer);
      client.send({ id, request });
    });
  const auth = (token: string) => ({ 'content-type': 'application/json', 'accept-encoding': 'gzip', authorization: `Bearer ${token}` });
  const rollBody = (prefix: string) => JSON.stringify({ commandId: `${prefix}{i}`, type: 'Roll', payload: { dice: '2d6', purpose: 'bench' } });

  // Warmed first, as a server that has been up a while is (the verify figure takes its best pass for the same reason).
  // The warming runs are reported too, with no target: what a server just started does.
  const warm = await newGame();
  const warmingOne = await remoteLoad({ targets: [{ url: `${url}/games/${warm.gameId}/commands`, headers: auth(warm.tokens.players.player1) }], method: 'POST', body: rollBody('w'), expect: 201, total: 4000, concurrency });
  const one = await newGame();
  // The size of one command's answer, for the floors' payloads.
  const replySize = (await (await post(`/games/${one.gameId}/commands`, { commandId: 'size', type: 'Roll', payload: { dice: '2d6', purpose: 'bench' } }, one.tokens.players.player1)).arrayBuffer()).byteLength;
  // The floors write what a command writes: its item, copied from the store (a lone command's group of one).
  const written = await dynamo.client.send(new QueryCommand({ TableName: dynamo.tableName, KeyConditionExpression: 'pk = :game', ExpressionAttributeValues: { ':game': { S: one.gameId } }, ScanIndexForward: false, Limit: 1 }));
  const commandItem = written.Items?.[0];
  if (!commandItem?.commit) throw new Error('the bench cannot read the item of its lone command');
  const itemBytes = Buffer.byteLength(JSON.stringify(commandItem));
  const floorItem = (pk: string, i: number) => ({ ...commandItem, pk: { S: pk }, sk: { N: String(i + 1) } });
  const spreadTargets = async () => (await Promise.all(Array.from({ length: 50 }, newGame))).map((g) => ({ url: `${url}/games/${g.gameId}/commands`, headers: auth(g.tokens.players.player1) }));
  // Warmed too: the store's thread compiles its write path only under load, as the API's thread did above.
  const spreadGames = await spreadTargets();
  const warmingSpread = await remoteLoad({ targets: spreadGames, method: 'POST', body: rollBody('w'), expect: 201, total: 3000, concurrency });
  // Measured in rounds, each a slice of one game, of 50 games and of the put floor in turn, so that a slow second of a
  // shared machine falls on both sides of a ratio rather than on one of them.
  const rounds = 6;
  const slice = total / rounds;
  const oneTarget = [{ url: `${url}/games/${one.gameId}/commands`, headers: auth(one.tokens.players.player1) }];
  const slices: { one: LoadResult[]; spread: LoadResult[]; puts: LoadResult[] } = { one: [], spread: [], puts: [] };
  for (let round = 0; round < rounds; round++) {
    slices.one.push(await remoteLoad({ targets: oneTarget, method: 'POST', body: rollBody(`c${round}-`), expect: 201, total: slice, concurrency }));
    slices.spread.push(await remoteLoad({ targets: spreadGames, method: 'POST', body: rollBody(`s${round}-`), expect: 201, total: slice, concurrency }));
    slices.puts.push(
      await load(slice, concurrency, async (i) => {
        await dynamo.client.send(new PutItemCommand({ TableName: dynamo.tableName, Item: floorItem('floor', round * slice + i), ConditionExpression: 'attribute_not_exists(sk)' }));
      }),
    );
  }
  const oneGame = combined(slices.one);
  const spread = combined(slices.spread);
  const puts = combined(slices.puts);
  const payload = Buffer.from('x'.repeat(replySize));
  const bare = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.headers['if-none-match']) {
        res.writeHead(304, { etag: '"1"' });
        res.end();
      } else {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(payload);
      }
    });
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', () => r()));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  const bareBody = '{"commandId":"x"}';
  const bareReplies = await remoteLoad({ targets: [{ url: bareUrl }], method: 'POST', body: bareBody, expect: 201, total: 3000, concurrency });
  const commandFigure = (name: string, r: LoadResult, target: number) => {
    record({ section: 'HTTP commands', figure: `${name}: commands per second (${concurrency} in flight, ${r.count} commands)`, value: r.perSecond, unit: '/s', floor: { name: `conditional PutItems per second on the same store, each the item one command writes (${itemBytes} bytes)`, value: puts.perSecond }, ratio: r.perSecond / puts.perSecond, target: `≥ ${target.toFixed(1)}`, pass: r.perSecond / puts.perSecond >= target });
    record({ section: 'HTTP commands', figure: `${name}: p50 latency`, value: r.p50, unit: 'ms', floor: { name: 'bare node:http p50, same payload size', value: bareReplies.p50 } });
    record({ section: 'HTTP commands', figure: `${name}: p99 latency`, value: r.p99, unit: 'ms', floor: { name: 'bare node:http p99, same payload size', value: bareReplies.p99 } });
  };
  commandFigure('one game', oneGame, 1.0);
  commandFigure('50 games', spread, 0.7);
  for (const [name, r] of [['one game', warmingOne], ['50 games', warmingSpread]] as const) {
    record({ section: 'HTTP commands', figure: `${name}, while the server warms (the ${r.count} commands before the measured ones): commands per second`, value: r.perSecond, unit: '/s', floor: { name: 'the conditional PutItem floor above', value: puts.perSecond }, ratio: r.perSecond / puts.perSecond });
  }
  record({ section: 'HTTP commands', figure: 'bare node:http answers per second (same client, same payload)', value: bareReplies.perSecond, unit: '/s' });

  // 3. One client, one command at a time (a VASSAL module rolling): near one round trip plus one write.
  const single = await newGame();
  const singleTarget = [{ url: `${url}/games/${single.gameId}/commands`, headers: auth(single.tokens.players.player1) }];
  // The command's write as the service waits for it, from the API's thread, beside the same put alone: what a write costs
  // among the rest of the server's work. The client's send() is the store thread's (storeThreadClient.ts), timed around.
  const commandWrites: number[] = [];
  const sendToStore = dynamo.client.send.bind(dynamo.client) as (command: unknown) => Promise<unknown>;
  const timedSend = (async (command: unknown) => {
    const t = performance.now();
    try {
      return await sendToStore(command);
    } finally {
      // A command's item (its commit or its group's), not the snapshot written after an answer.
      if (command instanceof PutItemCommand && (command.input.Item?.commit || command.input.Item?.commits)) commandWrites.push(performance.now() - t);
    }
  }) as never;
  // In rounds too: commands, lone puts and bare round trips in turn.
  const sequentialRounds = 4;
  const sequentialSlice = sequentialTotal / sequentialRounds;
  const oneAtATime: { commands: LoadResult[]; puts: LoadResult[]; trips: LoadResult[] } = { commands: [], puts: [], trips: [] };
  for (let round = 0; round < sequentialRounds; round++) {
    dynamo.client.send = timedSend;
    oneAtATime.commands.push(await remoteLoad({ targets: singleTarget, method: 'POST', body: rollBody(`q${round}-`), expect: 201, total: sequentialSlice, concurrency: 1 }));
    dynamo.client.send = sendToStore as never;
    oneAtATime.puts.push(
      await load(sequentialSlice, 1, async (i) => {
        await dynamo.client.send(new PutItemCommand({ TableName: dynamo.tableName, Item: floorItem('floor-sequential', round * sequentialSlice + i), ConditionExpression: 'attribute_not_exists(sk)' }));
      }),
    );
    oneAtATime.trips.push(await remoteLoad({ targets: [{ url: bareUrl }], method: 'POST', body: bareBody, expect: 201, total: sequentialSlice, concurrency: 1 }));
  }
  commandWrites.sort((a, b) => a - b);
  const sequential = combined(oneAtATime.commands);
  const onePut = combined(oneAtATime.puts);
  const oneTrip = combined(oneAtATime.trips);
  const floor = oneTrip.p50 + onePut.p50;
  const floorName = `bare node:http round trip p50 ${oneTrip.p50.toFixed(2)} ms + one conditional PutItem p50 ${onePut.p50.toFixed(2)} ms`;
  record({ section: 'HTTP commands', figure: 'one client, one command at a time: p50 latency', value: sequential.p50, unit: 'ms', floor: { name: floorName, value: floor }, ratio: sequential.p50 / floor, target: '≤ 1.5', pass: sequential.p50 <= 1.5 * floor });
  record({ section: 'HTTP commands', figure: 'one client, one command at a time: p99 latency', value: sequential.p99, unit: 'ms', floor: { name: floorName, value: floor }, ratio: sequential.p99 / floor, target: '≤ 3', pass: sequential.p99 <= 3 * floor });
  record({ section: 'HTTP commands', figure: 'bare node:http round trip, one at a time: p99 (the same client and machine, nothing else served)', value: oneTrip.p99, unit: 'ms', floor: { name: floorName, value: floor }, ratio: oneTrip.p99 / floor });
  record({ section: 'HTTP commands', figure: 'one conditional PutItem at a time: p99', value: onePut.p99, unit: 'ms', floor: { name: floorName, value: floor }, ratio: onePut.p99 / floor });
  for (const p of [50, 99]) {
    const alone = p === 50 ? onePut.p50 : onePut.p99;
    record({ section: 'HTTP commands', figure: `one client: its command's write as the service waits for it (from the API's thread): p${p}`, value: percentile(commandWrites, p), unit: 'ms', floor: { name: `one conditional PutItem at a time, p${p}`, value: alone }, ratio: percentile(commandWrites, p) / alone });
  }

  const version = oneGame.count + 2;
  const polls = await remoteLoad({ targets: [{ url: `${url}/games/${one.gameId}/events?after=${version}`, headers: { authorization: `Bearer ${one.tokens.players.player1}`, 'if-none-match': `"${version}"` } }], method: 'GET', expect: 304, total: 3000, concurrency });
  const barePolls = await remoteLoad({ targets: [{ url: bareUrl, headers: { 'if-none-match': '"1"' } }], method: 'GET', expect: 304, total: 3000, concurrency });
  record({ section: 'Polling', figure: 'If-None-Match polls answered 304 per second', value: polls.perSecond, unit: '/s', floor: { name: 'bare node:http 304s per second', value: barePolls.perSecond }, ratio: polls.perSecond / barePolls.perSecond });

  // The same server on an in-memory store, whose writes cost next to nothing: what the service's own work allows, and so how
  // much of the figures above is the embedded store (on AWS a write is a network call that costs the function no CPU).
  const alone = createLocalServer(createHandlers(compose({}, { store: new MemoryEventStore(), signer: signerFromKey(generateSigningKey()), seedVault, soleWriter: true, maxGroup: MAX_GROUP, snapshots: { store: new MemorySnapshots(), write: true } }), localVerifierSource, quiet));
  await new Promise<void>((r) => alone.listen(0, '127.0.0.1', () => r()));
  const aloneUrl = `http://127.0.0.1:${(alone.address() as AddressInfo).port}`;
  const aloneTarget = async () => {
    const g = await newGameAt(aloneUrl);
    return { url: `${aloneUrl}/games/${g.gameId}/commands`, headers: auth(g.tokens.players.player1) };
  };
  await remoteLoad({ targets: [await aloneTarget()], method: 'POST', body: rollBody('w'), expect: 201, total: 1000, concurrency });
  const aloneSpread = await remoteLoad({ targets: await Promise.all(Array.from({ length: 50 }, aloneTarget)), method: 'POST', body: rollBody('s'), expect: 201, total, concurrency });
  const aloneSingle = await remoteLoad({ targets: [await aloneTarget()], method: 'POST', body: rollBody('q'), expect: 201, total: sequentialTotal, concurrency: 1 });
  const section = 'HTTP commands on an in-memory store (no target: the service without the embedded store\'s CPU)';
  record({ section, figure: `50 games: commands per second (${concurrency} in flight, ${aloneSpread.count} commands)`, value: aloneSpread.perSecond, unit: '/s', floor: { name: 'the conditional PutItem floor above', value: puts.perSecond }, ratio: aloneSpread.perSecond / puts.perSecond });
  record({ section, figure: '50 games: what the embedded store adds to a command (1/rate above − 1/rate here)', value: 1000 / spread.perSecond - 1000 / aloneSpread.perSecond, unit: 'ms', floor: { name: 'one conditional PutItem at the floor rate', value: 1000 / puts.perSecond } });
  record({ section, figure: 'one client, one command at a time: p50 latency', value: aloneSingle.p50, unit: 'ms', floor: { name: floorName, value: floor }, ratio: aloneSingle.p50 / floor });
  record({ section, figure: 'one client, one command at a time: p99 latency', value: aloneSingle.p99, unit: 'ms', floor: { name: floorName, value: floor }, ratio: aloneSingle.p99 / floor });
  alone.closeAllConnections();
  alone.close();
  client.disconnect();
  server.closeAllConnections();
  server.close();
  bare.closeAllConnections();
  bare.close();
  await dynamo.close();
}

// 5. Cost growth: items read and capacity per command, by game length
if (runs('cost')) {
  const dynamo = await startEmbeddedDynamo();
  const counter = countCalls(dynamo.client);
  const key = generateSigningKey();
  const store = new DynamoEventStore(dynamo.client, dynamo.tableName);
  let floorItems: number | undefined;
  let coldAt10: number | undefined;
  // As the servers run: snapshots read by every cold process, written by the one that commits.
  const snapshots = { store: new DynamoSnapshots(dynamo.client, dynamo.tableName), write: true };
  for (const length of [10, 1_000, 10_000]) {
    const service = compose({}, { store, signer: signerFromKey(key), seedVault, snapshots });
    const game = await service.createGame({ ruleset: 'dice' });
    const token = game.tokens.players.player1;
    for (let i = 2; i <= length; i++) await service.submit(game.gameId, token, { commandId: `b${i}`, type: 'Roll', payload: { dice: '2d6', purpose: 'bench' } });
    // A whole snapshot interval: its one snapshot write is counted with the commands that pay for it.
    const measured = SNAPSHOT_INTERVAL;
    counter.reset();
    for (let i = 0; i < measured; i++) await service.submit(game.gameId, token, { commandId: `m${i}`, type: 'Roll', payload: { dice: '2d6', purpose: 'bench' } });
    // The snapshot is written after the command that makes it due is answered: wait for it.
    await service.submit(game.gameId, token, { commandId: 'settle', type: 'Roll', payload: { dice: '2d6', purpose: 'bench' } });
    const warm = { ...counter.tally };
    // The cold process's worst case: N − 1 commits past the last snapshot.
    let version = length + measured + 1;
    while (version % SNAPSHOT_INTERVAL !== SNAPSHOT_INTERVAL - 1) await service.submit(game.gameId, token, { commandId: `p${++version}`, type: 'Roll', payload: { dice: '2d6', purpose: 'bench' } });
    counter.reset();
    await compose({}, { store, signer: signerFromKey(key), seedVault, snapshots }).submit(game.gameId, token, { commandId: 'cold', type: 'Roll', payload: { dice: '2d6', purpose: 'bench' } });
    const cold = { ...counter.tally };
    const counted = measured + 1;
    const perCommand = warm.itemsRead / counted;
    record({ section: 'Cost growth', figure: `game of ${length} commits, warm: items read per command`, value: perCommand, unit: 'items', floor: { name: 'items read per command at 10 commits', value: floorItems ??= perCommand }, target: '≤ 2', pass: perCommand <= 2 });
    record({ section: 'Cost growth', figure: `game of ${length} commits, warm: read / write units per command`, value: warm.readUnits / counted, unit: `RCU / ${(warm.writeUnits / counted).toFixed(2)} WCU` });
    coldAt10 ??= cold.itemsRead;
    const sameAsAt10 = Math.abs(cold.itemsRead - coldAt10) <= 0.1 * coldAt10;
    record({
      section: 'Cost growth',
      figure: `game of ${length} commits, cold process: items read by its first command, ${SNAPSHOT_INTERVAL - 1} commits past the last snapshot (the most there can be)`,
      value: cold.itemsRead,
      unit: `items (${cold.readUnits.toFixed(1)} RCU)`,
      floor: { name: `snapshot interval N = ${SNAPSHOT_INTERVAL}, plus 2`, value: SNAPSHOT_INTERVAL + 2 },
      ratio: cold.itemsRead / (SNAPSHOT_INTERVAL + 2),
      target: '≤ N + 2, within 10 % of the 10-commit game',
      pass: cold.itemsRead <= SNAPSHOT_INTERVAL + 2 && sameAsAt10,
    });
  }
  await dynamo.close();
}

// 6. All-in cost a month on AWS for 200 PBEM games (bench/costModel.ts: every line with its arithmetic; `npm run bench -- allin`)
if (runs('allin')) {
  const { stackFacts } = await import('./costFacts');
  const { costTable, monthlyCost, PBEM_200, summarize } = await import('./costModel');
  const facts = await stackFacts();
  const summary = summarize(monthlyCost(PBEM_200, facts));
  console.log(costTable(PBEM_200, facts));
  record({ section: 'All-in cost', figure: `${PBEM_200.name}: what the use adds, per 1,000 commands`, value: summary.usagePer1000 * 100, unit: '¢', target: '≤ 5 ¢ ($0.05)', pass: summary.usagePer1000 <= 0.05 });
  record({ section: 'All-in cost', figure: `${PBEM_200.name}: with the standing costs (keys, alarms, dashboard), per 1,000 commands`, value: summary.totalPer1000 * 100, unit: '¢' });
}

// 7. Bundles: what each function's cold start loads, and its import's wall and CPU time in a fresh Node process (bundleLoad.ts).
// `npm run bench -- bundles` runs this section alone.
if (runs('bundles')) {
  await bundleRows(mkdtempSync(join(tmpdir(), 'arbiter-bench-')), record);
}

// Results
if (only.length > 0) {
  log(`sections ${only.join(', ')} only: bench/results.md not written`);
  process.exit(0);
}
const machine = { cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30), node: process.version, platform: `${process.platform} ${process.arch}` };
const date = new Date().toISOString();
const seconds = (performance.now() - started) / 1000;
writeFileSync(new URL('results.json', import.meta.url), `${JSON.stringify({ date, machine, seconds, rows }, null, 2)}\n`);
const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2));
const lines = [
  '# Benchmark results',
  '',
  `Run on ${date} — ${machine.cpu}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node} (${machine.platform}); ${seconds.toFixed(0)} s in all.`,
  'Every figure beside its floor measured in the same run. Written by `npm run bench`; a miss is a finding, not hidden.',
  '',
];
for (const section of [...new Set(rows.map((r) => r.section))]) {
  lines.push(`## ${section}`, '', '| figure | value | floor | ratio | target |', '|---|---|---|---|---|');
  for (const r of rows.filter((row) => row.section === section)) {
    const floor = r.floor ? `${fmt(r.floor.value)} (${r.floor.name})` : '—';
    const target = r.target ? `${r.target}: **${r.pass ? 'pass' : 'miss'}**` : '—';
    lines.push(`| ${r.figure} | ${fmt(r.value)} ${r.unit} | ${floor} | ${r.ratio === undefined ? '—' : r.ratio.toFixed(2)} | ${target} |`);
  }
  lines.push('');
}
writeFileSync(new URL('results.md', import.meta.url), lines.join('\n'));
log(`wrote bench/results.md and bench/results.json; ${rows.filter((r) => r.pass === false).length} targets missed`);
void noop;
