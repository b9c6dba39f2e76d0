import { GetPublicKeyCommand, KMSClient, SignCommand } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { createPrivateKey, createPublicKey, generateKeyPairSync, sign as nodeSign } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { signatureIsValid } from '../../../domain/fairness/hashChain';
import { verifyExport } from '../../../domain/verify/verifyExport';
import { GameService } from '../../../functions/application/gameService';
import { kmsPublicKey, kmsSigner } from '../../../functions/application/kmsSigner';
import { aesSeedVault, newSeedKey } from '../../../functions/application/seedVault';
import { publishingOnly } from '../../../functions/application/signer';
import { MemoryEventStore } from '../../../functions/store/memoryStore';

const KEY_ARN = 'arn:aws:kms:eu-west-1:000000000000:key/11111111-2222-3333-4444-555555555555';
const kms = mockClient(KMSClient);
afterEach(() => kms.reset());

/** A stand-in for the key inside KMS: its public half as KMS answers it (SubjectPublicKeyInfo DER), and Sign as KMS computes it. */
function fakeKmsKey() {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  kms.on(GetPublicKeyCommand, { KeyId: KEY_ARN }).resolves({ KeyId: KEY_ARN, KeySpec: 'ECC_NIST_EDWARDS25519', KeyUsage: 'SIGN_VERIFY', PublicKey: new Uint8Array(spki), SigningAlgorithms: ['ED25519_SHA_512', 'ED25519_PH_SHA_512'] });
  kms.on(SignCommand).callsFake((input: { KeyId: string; Message: Uint8Array; MessageType: string; SigningAlgorithm: string }) => ({
    KeyId: KEY_ARN,
    SigningAlgorithm: input.SigningAlgorithm,
    // PureEdDSA over the message bytes (RFC 8032), what ED25519_SHA_512 with MessageType RAW computes.
    Signature: new Uint8Array(nodeSign(null, Buffer.from(input.Message), privateKey)),
  }));
  return { privateKey, x: publicKey.export({ format: 'jwk' }).x! };
}

describe('the KMS signer', () => {
  it('reads the Ed25519 public key from GetPublicKey and signs the raw 32 bytes of a hash with ED25519_SHA_512, RAW', async () => {
    const key = fakeKmsKey();
    const signer = await kmsSigner(new KMSClient({ region: 'eu-west-1' }), { currentKeyId: KEY_ARN, retired: [], log: [] });
    const jwk = signer.publicJwks()[0];
    expect(jwk.x).toBe(key.x);
    expect(signer.keysDocument().keys[0]).toMatchObject({ x: key.x, status: 'current', fingerprint: signer.fingerprint });
    const hash = 'ab'.repeat(32);
    const signature = await signer.sign(hash);
    // The request KMS gets: the hash's raw bytes, never its hex text, and the pure Ed25519 algorithm.
    const [call] = kms.commandCalls(SignCommand);
    expect(call.args[0].input).toEqual({ KeyId: KEY_ARN, Message: Buffer.from(hash, 'hex'), MessageType: 'RAW', SigningAlgorithm: 'ED25519_SHA_512' });
    // Exactly the fairness-v1 signature: standard base64 of the 64 bytes, verifying as the verifier does.
    expect(Buffer.from(signature, 'base64')).toHaveLength(64);
    expect(signature).toBe(nodeSign(null, Buffer.from(hash, 'hex'), key.privateKey).toString('base64'));
    expect(signatureIsValid(hash, signature, jwk)).toBe(true);
  });

  it('refuses a signature that does not verify, rather than storing a commit nobody can check', async () => {
    fakeKmsKey();
    kms.on(SignCommand).resolves({ KeyId: KEY_ARN, Signature: new Uint8Array(64).fill(7), SigningAlgorithm: 'ED25519_SHA_512' });
    const signer = await kmsSigner(new KMSClient({ region: 'eu-west-1' }), { currentKeyId: KEY_ARN, retired: [], log: [] });
    await expect(signer.sign('cd'.repeat(32))).rejects.toThrow(/does not verify/);
    kms.on(SignCommand).resolves({ KeyId: KEY_ARN, Signature: new Uint8Array(72), SigningAlgorithm: 'ED25519_SHA_512' });
    await expect(signer.sign('cd'.repeat(32))).rejects.toThrow(/does not verify/);
  });

  it('refuses a key that is not an Ed25519 signing key', async () => {
    const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    kms.on(GetPublicKeyCommand).resolves({ KeyId: KEY_ARN, KeySpec: 'ECC_NIST_P256', KeyUsage: 'SIGN_VERIFY', PublicKey: new Uint8Array(publicKey.export({ format: 'der', type: 'spki' })) });
    await expect(kmsPublicKey(new KMSClient({ region: 'eu-west-1' }), KEY_ARN)).rejects.toThrow(/not an Ed25519 signing key/);
    const ed = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' });
    kms.on(GetPublicKeyCommand).resolves({ KeyId: KEY_ARN, KeySpec: 'ECC_NIST_EDWARDS25519', KeyUsage: 'SIGN_VERIFY', PublicKey: new Uint8Array(ed.subarray(0, 40)) });
    await expect(kmsPublicKey(new KMSClient({ region: 'eu-west-1' }), KEY_ARN)).rejects.toThrow(/not Ed25519 SubjectPublicKeyInfo/);
  });

  it("in a function that only publishes keys, never calls Sign", async () => {
    fakeKmsKey();
    const signer = await kmsSigner(new KMSClient({ region: 'eu-west-1' }), { currentKeyId: KEY_ARN, retired: [], log: [] }, 'publish');
    expect(signer.canSign).toBe(false);
    await expect(signer.sign('ab'.repeat(32))).rejects.toThrow(/may not sign/);
    expect(kms.commandCalls(SignCommand)).toHaveLength(0);
  });

  it('signs a whole game that the offline verifier accepts, while the reading function serves the heads the signing one stored', async () => {
    fakeKmsKey();
    const client = new KMSClient({ region: 'eu-west-1' });
    const store = new MemoryEventStore();
    const seedVault = aesSeedVault(newSeedKey());
    const commands = new GameService({ store, signer: await kmsSigner(client, { currentKeyId: KEY_ARN, retired: [], log: [] }), seedVault });
    const reads = new GameService({ store, signer: await kmsSigner(client, { currentKeyId: KEY_ARN, retired: [], log: [] }, 'publish'), seedVault });
    const game = await commands.createGame({ ruleset: 'dice' });
    for (let i = 0; i < 3; i++) await commands.submit(game.gameId, game.tokens.players.player1, { commandId: `r${i}`, type: 'Roll', payload: { dice: '2d6', purpose: `r${i}` } });
    await commands.submit(game.gameId, game.tokens.organizer, { commandId: 's', type: 'Seal' });
    const signs = kms.commandCalls(SignCommand).length;
    expect(signs).toBe(10); // a commit and its head, for each of the five commits

    const head = await reads.head(game.gameId, game.tokens.players.player2);
    expect(head).toMatchObject({ seq: 5, sealed: true, kid: commands.signer.kid });
    const bundle = await reads.exportBundle(game.gameId, game.tokens.players.player2);
    expect(bundle.head).toEqual(head);
    expect(kms.commandCalls(SignCommand)).toHaveLength(signs);
    expect(verifyExport(bundle, { trusted: [commands.signer.fingerprint] })).toMatchObject({ exitCode: 0, failures: [] });
  });

  it('a publishing-only copy of a file key behaves the same way', async () => {
    const { privateKey } = generateKeyPairSync('ed25519');
    const jwk = privateKey.export({ format: 'jwk' });
    const { signerFromKey } = await import('../../../functions/application/signer');
    const signer = signerFromKey({ kid: 'k-file', jwk });
    const publishing = publishingOnly(signer);
    expect([publishing.canSign, publishing.fingerprint, publishing.keysDocument()]).toEqual([false, signer.fingerprint, signer.keysDocument()]);
    await expect(publishing.sign('ab'.repeat(32))).rejects.toThrow(/may not sign/);
    expect(createPublicKey(createPrivateKey({ key: jwk, format: 'jwk' })).export({ format: 'jwk' }).x).toBe(signer.publicJwks()[0].x);
  });

  it('a game stored before heads were stored with commits: signed at read time where the function may sign, a 503 where it may not', async () => {
    /** A store as it was: it keeps no heads. */
    class HeadlessStore extends MemoryEventStore {
      override async createGame(...args: Parameters<MemoryEventStore['createGame']>) {
        return super.createGame(args[0], args[1]);
      }
      override async append(...args: Parameters<MemoryEventStore['append']>) {
        return super.append(args[0]);
      }
    }
    const { privateKey } = generateKeyPairSync('ed25519');
    const { signerFromKey } = await import('../../../functions/application/signer');
    const signer = signerFromKey({ kid: 'k-old', jwk: privateKey.export({ format: 'jwk' }) });
    const store = new HeadlessStore();
    const seedVault = aesSeedVault(newSeedKey());
    const local = new GameService({ store, signer, seedVault, now: () => '2026-11-23T12:00:00.000Z' });
    const game = await local.createGame({ ruleset: 'dice' });
    expect(await store.readHead(game.gameId, 1)).toBeUndefined();
    expect(await local.head(game.gameId, game.tokens.organizer)).toMatchObject({ seq: 1, at: '2026-11-23T12:00:00.000Z' });
    const reads = new GameService({ store, signer: publishingOnly(signer), seedVault });
    await expect(reads.head(game.gameId, game.tokens.organizer)).rejects.toMatchObject({ status: 503, message: expect.stringMatching(/gets one with its next command/) });
  });
});
