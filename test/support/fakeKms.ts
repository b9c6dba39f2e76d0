import { createCipheriv, createDecipheriv, createHmac, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Answers KMS's JSON protocol on loopback for the calls Arbiter makes (GetPublicKey, Sign,
 * Encrypt, Decrypt), with keys made here: Ed25519 signing keys signing as KMS's
 * ED25519_SHA_512 with MessageType RAW does, and symmetric keys bound to the encryption
 * context. So a Lambda bundle runs here as on AWS. Counts each call by operation.
 */
export async function startFakeKms(keys: { signing: string[]; symmetric: string[]; /** A signing key's private key given by the test (to sign fixtures as the server would); otherwise made here. */ privateKeys?: ReadonlyMap<string, KeyObject> }) {
  const signing = new Map<string, { privateKey: KeyObject; spki: Buffer }>();
  for (const arn of keys.signing) {
    const given = keys.privateKeys?.get(arn);
    const pair = given ? { privateKey: given, publicKey: createPublicKey(given) } : generateKeyPairSync('ed25519');
    signing.set(arn, { privateKey: pair.privateKey, spki: pair.publicKey.export({ format: 'der', type: 'spki' }) });
  }
  const symmetric = new Map(keys.symmetric.map((arn) => [arn, randomBytes(32)]));
  const calls = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const operation = String(req.headers['x-amz-target'] ?? '').replace(/^TrentService\./, '');
      calls.set(operation, (calls.get(operation) ?? 0) + 1);
      const input = JSON.parse(body || '{}') as Record<string, unknown>;
      const answer = (status: number, value: unknown) => {
        res.statusCode = status;
        res.setHeader('content-type', 'application/x-amz-json-1.1');
        res.end(JSON.stringify(value));
      };
      const fail = (type: string, message: string) => answer(400, { __type: type, message });
      const keyId = String(input.KeyId ?? '');
      const context = Buffer.from(JSON.stringify(input.EncryptionContext ?? {}));
      switch (operation) {
        case 'GetPublicKey': {
          const key = signing.get(keyId);
          if (!key) return fail('NotFoundException', `no key ${keyId}`);
          return answer(200, { KeyId: keyId, KeySpec: 'ECC_NIST_EDWARDS25519', KeyUsage: 'SIGN_VERIFY', PublicKey: key.spki.toString('base64'), SigningAlgorithms: ['ED25519_SHA_512'] });
        }
        case 'Sign': {
          const key = signing.get(keyId);
          if (!key) return fail('NotFoundException', `no key ${keyId}`);
          if (input.MessageType !== 'RAW' || input.SigningAlgorithm !== 'ED25519_SHA_512') return fail('ValidationException', 'Ed25519 keys sign RAW messages with ED25519_SHA_512');
          const signature = sign(null, Buffer.from(String(input.Message), 'base64'), key.privateKey);
          return answer(200, { KeyId: keyId, Signature: signature.toString('base64'), SigningAlgorithm: 'ED25519_SHA_512' });
        }
        case 'GenerateMac': {
          const key = symmetric.get(keyId);
          if (!key) return fail('NotFoundException', `no key ${keyId}`);
          if (input.MacAlgorithm !== 'HMAC_SHA_256') return fail('ValidationException', 'HMAC_256 keys answer HMAC_SHA_256');
          const mac = createHmac('sha256', key).update(Buffer.from(String(input.Message), 'base64')).digest();
          return answer(200, { KeyId: keyId, Mac: mac.toString('base64'), MacAlgorithm: 'HMAC_SHA_256' });
        }
        case 'Encrypt': {
          const key = symmetric.get(keyId);
          if (!key) return fail('NotFoundException', `no key ${keyId}`);
          const iv = randomBytes(12);
          const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(context);
          const sealed = Buffer.concat([cipher.update(Buffer.from(String(input.Plaintext), 'base64')), cipher.final()]);
          return answer(200, { KeyId: keyId, CiphertextBlob: Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64') });
        }
        case 'Decrypt': {
          const key = symmetric.get(keyId);
          if (!key) return fail('NotFoundException', `no key ${keyId}`);
          const blob = Buffer.from(String(input.CiphertextBlob), 'base64');
          try {
            const decipher = createDecipheriv('aes-256-gcm', key, blob.subarray(0, 12)).setAAD(context);
            decipher.setAuthTag(blob.subarray(12, 28));
            return answer(200, { KeyId: keyId, Plaintext: Buffer.concat([decipher.update(blob.subarray(28)), decipher.final()]).toString('base64') });
          } catch {
            return fail('InvalidCiphertextException', 'the ciphertext does not open under this key and context');
          }
        }
        default:
          return fail('UnsupportedOperationException', `${operation} is not answered here`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls: (operation: string) => calls.get(operation) ?? 0,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
