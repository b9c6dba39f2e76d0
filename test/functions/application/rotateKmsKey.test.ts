import { KMSClient } from '@aws-sdk/client-kms';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyExport } from '../../../domain/verify/verifyExport';
import { GameService } from '../../../functions/application/gameService';
import { kmsSeedVault } from '../../../functions/application/kmsSeedVault';
import { kmsSigner } from '../../../functions/application/kmsSigner';
import { RetiredKeyError } from '../../../functions/application/signer';
import { RETIREMENT_GRACE_MS, rotateKmsKey } from '../../../functions/application/rotateKmsKey';
import { startEmbeddedDynamo, type EmbeddedDynamo } from '../../../functions/local/embeddedDynamo';
import { DynamoEventStore } from '../../../functions/store/dynamoStore';
import { KeyRingStore } from '../../../functions/store/keyRingStore';
import { startFakeKms } from '../../support/fakeKms';

const FIRST = 'arn:aws:kms:eu-west-1:000000000000:key/first';
const SECOND = 'arn:aws:kms:eu-west-1:000000000000:key/second';
const SEEDS = 'arn:aws:kms:eu-west-1:000000000000:key/seeds';
let dynamo: EmbeddedDynamo;
let fake: Awaited<ReturnType<typeof startFakeKms>>;
beforeAll(async () => {
  dynamo = await startEmbeddedDynamo();
  fake = await startFakeKms({ signing: [FIRST, SECOND], symmetric: [SEEDS] });
});
afterAll(async () => {
  await dynamo?.close();
  await fake?.close();
});

describe('rotating the deployed KMS signing key (trust.md §3)', () => {
  it('hands over from the first key to the next with a statement the old key signed; pins of the old key verify games signed after', async () => {
    const kms = new KMSClient({ region: 'eu-west-1', endpoint: fake.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const rings = new KeyRingStore(dynamo.client, dynamo.tableName);
    const store = new DynamoEventStore(dynamo.client, dynamo.tableName);
    const serviceNow = async () => new GameService({ store, signer: await kmsSigner(kms, await rings.read(FIRST)), seedVault: kmsSeedVault(kms, SEEDS) });

    const before = await serviceNow();
    const pinned = before.signer.fingerprint;
    const game = await before.createGame({ ruleset: 'dice' });
    await before.submit(game.gameId, game.tokens.players.player1, { commandId: 'r1', type: 'Roll', payload: { dice: '2d6', purpose: 'before' } });

    // The rotation happens now, after the commits the old key signed (trust.md §6 refuses any later than its retirement).
    const at = new Date().toISOString();
    const rotated = await rotateKmsKey(kms, rings, { initialKeyId: FIRST, to: SECOND, at });
    expect(rotated).toMatchObject({ previous: pinned, n: 1 });
    // A warm container still holding the old ring signs for up to a minute more: the retirement leaves it that time.
    expect((await rings.read(FIRST)).log[0].at).toBe(new Date(Date.parse(at) + RETIREMENT_GRACE_MS).toISOString());
    await before.submit(game.gameId, game.tokens.players.player1, { commandId: 'r-stale', type: 'Roll', payload: { dice: '2d6', purpose: 'stale ring' } });
    await expect(rotateKmsKey(kms, rings, { initialKeyId: FIRST, to: SECOND, at: '2026-11-23T12:00:01.000Z' })).rejects.toThrow(/already the current key/);
    await expect(rotateKmsKey(kms, rings, { initialKeyId: FIRST, to: FIRST, at: '2026-11-23T12:00:01.000Z' })).rejects.toThrow(/has signed for this service before/);

    const after = await serviceNow();
    expect(after.signer.fingerprint).toBe(rotated.next);
    expect(after.signer.keysDocument().keys.map((k) => k.status)).toEqual(['current', 'retired']);
    await after.submit(game.gameId, game.tokens.players.player1, { commandId: 'r2', type: 'Roll', payload: { dice: '2d6', purpose: 'after' } });
    await after.submit(game.gameId, game.tokens.organizer, { commandId: 's', type: 'Seal' });
    const bundle = await after.exportBundle(game.gameId, game.tokens.organizer);
    expect(bundle.keyLog).toHaveLength(1);
    expect(verifyExport(bundle, { trusted: [pinned] })).toMatchObject({ exitCode: 0, failures: [] });
    expect(verifyExport(bundle, { trusted: [rotated.next] }).exitCode).toBe(1);
    expect(fake.calls('Decrypt')).toBeGreaterThan(0);

    // A ring turned back to the retired key by hand (or a stale copy of the item) does not make it sign again.
    const undone = { ...(await rings.read(FIRST)), currentKeyId: FIRST };
    await expect(kmsSigner(kms, undone)).rejects.toThrow(RetiredKeyError);
    await expect(kmsSigner(kms, undone)).rejects.toThrow(`the signing key ${pinned} is retired (key log statement 1,`);
    expect((await kmsSigner(kms, undone, 'publish')).canSign).toBe(false);
  });

  it('never forks the log: a second rotation from a stale ring is refused', async () => {
    const rings = new KeyRingStore(dynamo.client, dynamo.tableName);
    const ring = await rings.read(FIRST);
    await expect(rings.write({ ...ring, log: [...ring.log] })).rejects.toThrow(/another rotation changed the key ring/);
  });
});
