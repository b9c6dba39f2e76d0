import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Answers Secrets Manager's GetSecretValue on loopback, so that a Lambda bundle can
 * be run here as it runs on AWS, and PutSecretValue for key rotation. Counts the reads, to check they happen once per process.
 */
export async function startFakeSecretsManager(secrets: Record<string, string>): Promise<{ endpoint: string; reads: () => number; close: () => Promise<void> }> {
  let reads = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const target = req.headers['x-amz-target'];
      const { SecretId, SecretString } = JSON.parse(body || '{}') as { SecretId?: string; SecretString?: string };
      res.setHeader('content-type', 'application/x-amz-json-1.1');
      if (target === 'secretsmanager.PutSecretValue' && SecretId && Object.hasOwn(secrets, SecretId) && SecretString) {
        secrets[SecretId] = SecretString;
        res.end(JSON.stringify({ ARN: SecretId, Name: 'signing', VersionId: `v${Date.now()}`, VersionStages: ['AWSCURRENT'] }));
        return;
      }
      if (target !== 'secretsmanager.GetSecretValue' || !SecretId || !Object.hasOwn(secrets, SecretId)) {
        res.statusCode = 400;
        res.end(JSON.stringify({ __type: 'ResourceNotFoundException', message: 'no such secret' }));
        return;
      }
      reads += 1;
      res.end(JSON.stringify({ ARN: SecretId, Name: 'signing', SecretString: secrets[SecretId], VersionId: 'v1', CreatedDate: 0 }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return { endpoint: `http://127.0.0.1:${port}`, reads: () => reads, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
