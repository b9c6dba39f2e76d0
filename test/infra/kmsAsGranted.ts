import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An IAM statement of a role, its KMS keys given by the ARNs the test uses for them. */
export interface KmsGrant {
  effect: 'Allow' | 'Deny';
  actions: string[];
  resources: string[];
  condition?: Record<string, Record<string, string | string[]>>;
}

/** The keys by kind, as KMS enforces key usage: what each kind of key answers, any other call is refused. */
export interface KmsKeys {
  /** ECC_NIST_EDWARDS25519, SIGN_VERIFY */
  signing: string[];
  /** SYMMETRIC_DEFAULT, ENCRYPT_DECRYPT */
  encrypt: string[];
  /** HMAC_256, GENERATE_VERIFY_MAC */
  mac: string[];
}

const USAGE: Record<keyof KmsKeys, ReadonlySet<string>> = {
  signing: new Set(['GetPublicKey', 'Sign', 'Verify', 'DescribeKey']),
  encrypt: new Set(['Encrypt', 'Decrypt', 'GenerateDataKey', 'ReEncrypt', 'DescribeKey']),
  mac: new Set(['GenerateMac', 'VerifyMac', 'DescribeKey']),
};

export interface KmsCall {
  operation: string;
  keyId: string;
  /** Why it was refused (key usage or the role's grants), or undefined when it went through. */
  refused?: string;
}

/**
 * A loopback proxy in front of the fake KMS (test/support/fakeKms.ts) that answers as KMS
 * would for one function's role: a call goes through only when the role's statements allow
 * it on that key (explicit Deny wins) and the key's usage allows the operation; otherwise it
 * is refused with AccessDeniedException or InvalidKeyUsageException. Only the condition
 * operators infra/signing.ts uses are read; any other fails the call loudly, so a new
 * condition is never taken as allowed by mistake.
 */
export async function startKmsAsGranted(upstreamEndpoint: string, keys: KmsKeys, grants: KmsGrant[]) {
  const upstream = new URL(upstreamEndpoint);
  const calls: KmsCall[] = [];
  const kindOf = (keyId: string) => (Object.keys(keys) as (keyof KmsKeys)[]).find((kind) => keys[kind].includes(keyId));

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const operation = String(req.headers['x-amz-target'] ?? '').replace(/^TrentService\./, '');
      const input = JSON.parse(body.toString('utf8') || '{}') as { KeyId?: string; EncryptionContext?: Record<string, string> };
      const keyId = String(input.KeyId ?? '');
      const refuse = (type: string, message: string) => {
        calls.push({ operation, keyId, refused: `${type}: ${message}` });
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify({ __type: type, message }));
      };
      let allowed: boolean;
      try {
        allowed = permitted(`kms:${operation}`, keyId, Object.keys(input.EncryptionContext ?? {}));
      } catch (error) {
        return refuse('AccessDeniedException', (error as Error).message);
      }
      if (!allowed) return refuse('AccessDeniedException', `the role may not kms:${operation} on ${keyId}`);
      const kind = kindOf(keyId);
      if (kind && !USAGE[kind].has(operation)) return refuse('InvalidKeyUsageException', `${keyId} is a ${kind} key: it does not answer ${operation}`);
      calls.push({ operation, keyId });
      const forwarded = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers }, (up) => {
        res.writeHead(up.statusCode ?? 500, up.headers);
        up.pipe(res);
      });
      forwarded.on('error', (error) => refuse('KMSInternalException', error.message));
      forwarded.end(body);
    });
  });

  function permitted(action: string, keyId: string, contextKeys: string[]): boolean {
    const applies = (grant: KmsGrant) => grant.actions.includes(action) && grant.resources.includes(keyId) && conditionHolds(grant.condition, contextKeys);
    return grants.some((g) => g.effect === 'Allow' && applies(g)) && !grants.some((g) => g.effect === 'Deny' && applies(g));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    refused: () => calls.filter((c) => c.refused),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The encryption-context conditions of infra/signing.ts, as IAM evaluates them for the context keys of one request. */
function conditionHolds(condition: KmsGrant['condition'], contextKeys: string[]): boolean {
  if (!condition) return true;
  return Object.entries(condition).every(([operator, tests]) =>
    Object.entries(tests).every(([key, value]) => {
      if (key !== 'kms:EncryptionContextKeys') throw new Error(`no reading of the condition key ${key} here`);
      const values = [value].flat();
      switch (operator) {
        // True for a request with no context keys at all: that is why a Null test goes with it.
        case 'ForAllValues:StringEquals':
          return contextKeys.every((k) => values.includes(k));
        case 'ForAnyValue:StringEquals':
          return contextKeys.some((k) => values.includes(k));
        case 'Null':
          return (contextKeys.length === 0) === (values[0] === 'true');
        default:
          throw new Error(`no reading of the condition ${operator} here`);
      }
    }),
  );
}
