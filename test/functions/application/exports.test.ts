import { beforeAll, describe, expect, it, vi } from 'vitest';
import { gameExport, type ExportDelivery } from '../../../functions/application/exports';
import type { GameService } from '../../../functions/application/gameService';
import { StoreUnavailable } from '../../../functions/store/eventStore';
import type { BlobStore } from '../../../functions/store/blobStore';
import { memoryBlobs } from '../../support/memoryBlobs';
import { memoryService } from '../../support/memoryService';

let service: GameService;
let gameId: string;
let token: string;
let organizer: string;

beforeAll(async () => {
  ({ service } = memoryService('exports-unit'));
  const created = await service.createGame({ ruleset: 'dice' });
  ({ gameId } = created);
  token = created.tokens.players.player1;
  organizer = created.tokens.organizer;
  for (let i = 0; i < 5; i++) await service.submit(gameId, token, { commandId: `r${i}`, type: 'Roll', payload: { dice: '2d6', purpose: `r${i}` } });
});

describe('gameExport', () => {
  it('without an export store: inline, as before, whatever the size', async () => {
    const answer = await gameExport(service, undefined, gameId, token);
    expect(answer).toMatchObject({ kind: 'inline', contentType: 'application/json; charset=utf-8' });
    if (answer.kind === 'inline') expect(JSON.parse(answer.body).commits).toHaveLength(6);
  });

  it('inline under the limit (the store asked only whether it holds the version); stored once and linked over it', async () => {
    const blobs = memoryBlobs();
    const small = await gameExport(service, { store: blobs.store }, gameId, token);
    expect(small.kind).toBe('inline');
    expect(blobs.calls).toEqual([expect.stringMatching(new RegExp(`^size games/${gameId}/6-[0-9a-f]{16}\\.json$`))]);

    const delivery: ExportDelivery = { store: blobs.store, inlineMaxBytes: 100, linkSeconds: 120, now: () => Date.parse('2026-11-23T10:00:00Z') };
    const large = await gameExport(service, delivery, gameId, token);
    expect(large).toMatchObject({ kind: 'link', expiresAt: '2026-11-23T10:02:00.000Z' });
    const key = blobs.calls.at(-1)!.replace(/^put /, '');
    expect(blobs.calls.slice(1)).toEqual([`size ${key}`, `put ${key}`]);
    if (large.kind === 'link') {
      expect(large.url).toBe(`https://blobs.example.test/${key}?expires=120`);
      expect(large.bytes).toBe(blobs.objects.get(key)!.length);
      expect(JSON.parse(blobs.objects.get(key)!.toString('utf8')).commits).toHaveLength(6);
    }
    // The same version again: a link to what is stored, and not a commit read.
    const bundles = vi.spyOn(service, 'exportBundle');
    await gameExport(service, delivery, gameId, token);
    expect(bundles).not.toHaveBeenCalled();
    bundles.mockRestore();
    expect(blobs.calls.slice(3)).toEqual([`size ${key}`]);
  });

  it('names the version it read: a command stored between the look and the build is in the export, and in its key', async () => {
    const { service: racing } = memoryService('exports-race');
    const created = await racing.createGame({ ruleset: 'dice' });
    const player = created.tokens.players.player1;
    const blobs = memoryBlobs();
    const store: BlobStore = {
      ...blobs.store,
      size: async (key) => {
        await racing.submit(created.gameId, player, { commandId: 'late', type: 'Roll', payload: { dice: 'd6', purpose: 'late' } });
        return blobs.store.size(key);
      },
    };
    const answer = await gameExport(racing, { store, inlineMaxBytes: 0 }, created.gameId, player);
    expect(answer.kind).toBe('link');
    const [key] = blobs.objects.keys();
    expect(key).toMatch(new RegExp(`^games/${created.gameId}/2-`));
    expect(JSON.parse(blobs.objects.get(key)!.toString('utf8')).commits).toHaveLength(2);
  });

  it('a key rotation (other keys in the export) is another object', async () => {
    const blobs = memoryBlobs();
    await gameExport(service, { store: blobs.store, inlineMaxBytes: 0 }, gameId, token);
    const original = service.signer.keysDocument();
    const rotated = vi.spyOn(service.signer, 'keysDocument').mockReturnValue({ ...original, log: [...original.log, { type: 'KeyRotation' } as never] });
    await gameExport(service, { store: blobs.store, inlineMaxBytes: 0 }, gameId, token);
    rotated.mockRestore();
    expect(blobs.objects.size).toBe(2);
  });

  it('a store briefly unavailable: a small export is still inline; a large one is a 503 to retry; a refusal is a fault', async () => {
    const slow = memoryBlobs({ size: new StoreUnavailable(new Error('SlowDown')), put: new StoreUnavailable(new Error('SlowDown')) });
    expect((await gameExport(service, { store: slow.store }, gameId, token)).kind).toBe('inline');
    await expect(gameExport(service, { store: slow.store, inlineMaxBytes: 0 }, gameId, token)).rejects.toBeInstanceOf(StoreUnavailable);
    const denied = memoryBlobs({ size: new Error('S3 answered HEAD with 403 AccessDenied') });
    await expect(gameExport(service, { store: denied.store }, gameId, token)).rejects.toThrow(/403/);
  });

  it('who may export is decided before the store is asked anything', async () => {
    const blobs = memoryBlobs();
    await expect(gameExport(service, { store: blobs.store }, gameId, undefined)).rejects.toMatchObject({ status: 401 });
    await expect(gameExport(service, { store: blobs.store }, 'g-nope', token)).rejects.toMatchObject({ status: 404 });
    await expect(gameExport(service, { store: blobs.store }, '../games', organizer)).rejects.toMatchObject({ status: 404 });
    expect(blobs.calls).toEqual([]);
  });
});
