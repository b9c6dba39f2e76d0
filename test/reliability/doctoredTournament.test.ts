import { describe, expect, it } from 'vitest';
import type { ExportDelivery } from '../../functions/application/exports';
import { InProcessExportJobs, startTournamentExport } from '../../functions/application/tournamentExportJobs';
import { memoryBlobs } from '../support/memoryBlobs';
import { GameService } from '../../functions/application/gameService';
import { aesSeedVault, newSeedKey } from '../../functions/application/seedVault';
import { generateSigningKey, signerFromKey } from '../../functions/application/signer';
import type { EventStore } from '../../functions/store/eventStore';
import { MemoryEventStore } from '../../functions/store/memoryStore';
import { useTestServer } from '../support/httpClient';
import { run, writeTemp } from '../support/runCli';
import { figure } from './figures';

// Issue 30, "Integrity at the edges": a tournament export whose games could be swapped,
// dropped or cut away while `arbiter verify` still said OK; a large export stored anew on
// every request; a listing and export that read every game on every request.

const server = useTestServer();
const verify = (file: string, ...args: string[]) => run('node', ['bin/arbiter.mjs', 'verify', file, ...args]);
const linesOf = (text: string) => text.trimEnd().split('\n').map((line) => JSON.parse(line));
const ndjson = (values: unknown[]) => values.map((value) => `${JSON.stringify(value)}\n`).join('');

/** A sealed dice game with a roll, created with a tournament's token or alone: its id and a token that reads it. */
async function playedGame(tournamentToken?: string): Promise<{ gameId: string; token: string }> {
  const { client } = server;
  const created = tournamentToken ? (await client.post('/games', { ruleset: 'dice' }, tournamentToken)).body : await client.createGame();
  const organizer = tournamentToken ?? created.tokens.organizer;
  await client.command(created.gameId, created.tokens.players.player1, { commandId: 'r1', type: 'Roll', payload: { dice: '2d6', purpose: 'fire' } });
  await client.command(created.gameId, organizer, { commandId: 'seal', type: 'Seal' });
  return { gameId: created.gameId, token: organizer };
}

describe('a doctored tournament export', () => {
  it("fails arbiter verify (exit 1) naming the game: a game swapped for a standalone or another tournament's game, dropped, reordered, doubled, or the file cut to its header", async () => {
    const { client, local } = server;
    const trust = local.service.signer.fingerprint;
    const cup = (await client.post('/tournaments', { name: 'Cup' })).body;
    const other = (await client.post('/tournaments', { name: 'Other cup' })).body;
    const [first, second, third] = [await playedGame(cup.token), await playedGame(cup.token), await playedGame(cup.token)];
    const standalone = await playedGame();
    const elsewhere = await playedGame(other.token);

    const genuine = (await client.exported(`/tournaments/${cup.tournamentId}/export`, cup.token)).text;
    const [header, ...games] = linesOf(genuine);
    expect(games.map((g) => g.gameId)).toEqual([first.gameId, second.gameId, third.gameId]);
    const standaloneBundle = (await client.get(`/games/${standalone.gameId}/export`, standalone.token)).body;
    const elsewhereBundle = linesOf((await client.exported(`/tournaments/${other.tournamentId}/export`, other.token)).text)[1];
    const withGames = (bundles: unknown[]) => ndjson([{ ...header, games: bundles.length }, ...bundles]);

    const genuineRun = await verify(writeTemp('genuine.ndjson', genuine), '--trust', trust);
    expect([genuineRun.code, genuineRun.stdout.trimEnd().split('\n').at(-1)]).toEqual([0, 'OK: every game verified']);

    const doctored: [string, string, string][] = [
      ['a game swapped for a standalone game', withGames([games[0], standaloneBundle, games[2]]), standalone.gameId],
      ["a game swapped for another tournament's game", withGames([games[0], elsewhereBundle, games[2]]), elsewhere.gameId],
      ['a game dropped', withGames([games[0], games[2]]), second.gameId],
      ['two games reordered', withGames([games[1], games[0], games[2]]), first.gameId],
      ['a game in place of another', withGames([games[0], games[0], games[2]]), second.gameId],
      ['cut to its header', withGames([]), first.gameId],
      ['its tournament head removed', ndjson([{ ...header, tournamentHead: undefined }, ...games]), 'no signed tournament head'],
    ];
    let refused = 0;
    for (const [what, text, named] of doctored) {
      const result = await verify(writeTemp('doctored.ndjson', text), '--trust', trust);
      expect(result.code, `${what}: ${result.stdout}`).toBe(1);
      expect(result.stdout, what).toContain(named);
      expect(result.stdout, what).not.toContain('OK: every game verified');
      refused += 1;
    }
    figure('Doctored tournament', 'doctored exports refused by arbiter verify (exit 1, the game named)', `${refused} of ${doctored.length}`);
  });
});

/** A service whose clock moves a second per reading, on a store that counts the reads of commits. */
function countedService() {
  const inner = new MemoryEventStore();
  const counts = { commitReads: 0 };
  const store = new Proxy(inner, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      if (property === 'read') return (...args: unknown[]) => ((counts.commitReads += 1), value.apply(target, args));
      return value.bind(target);
    },
  }) as EventStore;
  let tick = 0;
  const service = new GameService({
    store,
    signer: signerFromKey(generateSigningKey()),
    seedVault: aesSeedVault(newSeedKey()),
    now: () => new Date(Date.UTC(2026, 10, 27, 9) + tick++ * 1000).toISOString(),
  });
  return { service, counts };
}

describe('a large tournament export asked again', () => {
  it('is stored once per content and reused: 20 requests of an unchanged tournament store one object and read no commits again', async () => {
    const { service, counts } = countedService();
    const cup = await service.tournaments.create({ name: 'Stored once' });
    const gameCount = 40;
    for (let table = 0; table < gameCount; table++) {
      const game = await service.tournaments.createGame({ ruleset: 'dice' }, cup.token);
      for (let i = 0; i < 5; i++) await service.submit(game.gameId, game.tokens.players.player1, { commandId: `r${i}`, type: 'Roll', payload: { dice: '3d6', purpose: `fire ${i}` } });
    }
    const blobs = memoryBlobs();
    const jobs = new InProcessExportJobs(service, blobs.store);
    const delivery: ExportDelivery = { store: blobs.store, jobs };
    const uploads = () => blobs.calls.filter((c) => c.startsWith('complete ')).length;
    const requests = 20;
    counts.commitReads = 0;
    const links = new Set<string>();
    for (let i = 0; i < requests; i++) {
      const answer = await startTournamentExport(service, delivery, cup.tournamentId, cup.token);
      // The first starts the job; once made, every later request is its link.
      if (i === 0) expect(answer.kind).toBe('pending');
      else expect(answer.kind).toBe('link');
      if (answer.kind === 'link') links.add(answer.url);
      await jobs.idle();
    }
    expect([uploads(), links.size]).toEqual([1, 1]);
    // The first request read each game's commits once; the 19 after it none.
    expect(counts.commitReads).toBeLessThanOrEqual(gameCount);
    const stored = [...blobs.objects].find(([key]) => key.endsWith('.ndjson'))![1];
    figure('Doctored tournament', `objects stored by ${requests} exports of an unchanged ${gameCount}-game tournament (bytes)`, `${uploads()} (${stored.length})`);
    figure('Doctored tournament', `commit reads over those ${requests} exports`, counts.commitReads);

    const fingerprint = service.signer.fingerprint;
    const reused = await verify(writeTemp('stored.ndjson', stored.toString('utf8')), '--trust', fingerprint, '--allow-unsealed');
    expect([reused.code, reused.stdout.trimEnd().split('\n').at(-1)]).toEqual([0, 'OK: every game verified']);

    // A command in one game is a new version of the tournament: one new object.
    const listing = await service.tournaments.listing(cup.tournamentId, cup.token, { limit: 1 });
    await service.submit(listing.games[0].gameId, cup.token, { commandId: 'late', type: 'Roll', payload: { dice: 'd6', purpose: 'late' }, as: 'player2' });
    await startTournamentExport(service, delivery, cup.tournamentId, cup.token);
    await jobs.idle();
    expect(uploads()).toBe(2);
  });
});

describe('a tournament of 250 games', () => {
  it('is listed and exported in pages (?after=&limit=) with a next cursor; the export head still covers every game; bad paging is a 400 naming the field', async () => {
    const { client, local } = server;
    const cup = (await client.post('/tournaments', { name: 'Big cup' })).body;
    const created: string[] = [];
    for (let i = 0; i < 250; i++) created.push((await local.service.tournaments.createGame({ ruleset: 'dice' }, cup.token)).gameId);
    const path = `/tournaments/${cup.tournamentId}`;

    const firstPage = await client.get(path, cup.token);
    expect([firstPage.status, firstPage.body.games.length, firstPage.body.next]).toEqual([200, 100, created[99]]);
    const listed: string[] = [];
    const pageSizes: number[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const page: { status: number; body: { games: { gameId: string }[]; next: string | null } } = await client.get(`${path}?limit=100${after ? `&after=${after}` : ''}`, cup.token);
      expect(page.status).toBe(200);
      pageSizes.push(page.body.games.length);
      listed.push(...page.body.games.map((g) => g.gameId));
      after = page.body.next;
      if (after === null) break;
    }
    expect(listed).toEqual(created);
    expect(pageSizes).toEqual([100, 100, 50]);

    for (const [query, field] of [['limit=0', 'limit'], ['limit=501', 'limit'], ['limit=ten', 'limit'], ['after=__proto__', 'after'], ['after=g-nobody', 'after']] as const) {
      for (const route of [path, `${path}/export`]) {
        const refused = await client.get(`${route}?${query}`, cup.token);
        expect([refused.status, refused.body?.error?.details?.issues?.[0]?.field], `${route}?${query}`).toEqual([400, field]);
      }
    }

    const trust = local.service.signer.fingerprint;
    const exported: string[] = [];
    after = null;
    let exportPages = 0;
    for (; exportPages < 10; exportPages++) {
      const reply = await client.exported(`${path}/export?limit=100${after ? `&after=${after}` : ''}`, cup.token);
      const [header, ...games] = linesOf(reply.text);
      expect(header.tournamentHead.games.map((g: { gameId: string }) => g.gameId)).toEqual(created);
      expect(games.length).toBeLessThanOrEqual(100);
      exported.push(...games.map((g) => g.gameId));
      const page = await verify(writeTemp('page.ndjson', reply.text), '--trust', trust, '--allow-unsealed');
      expect([page.code, page.stdout]).toEqual([3, expect.stringContaining('this file is one page')]);
      after = header.page.next;
      if (after === null) break;
    }
    expect(exported).toEqual(created);
    const whole = await verify(writeTemp('whole.ndjson', (await client.exported(`${path}/export`, cup.token)).text), '--trust', trust, '--allow-unsealed');
    expect(whole.code, whole.stdout).toBe(0);
    figure('Doctored tournament', 'a 250-game tournament: listing pages of 100 / export pages, each verified', `${pageSizes.join(' + ')} / ${exportPages + 1}`);
  });
});
