import { fromEnv } from '@aws-sdk/credential-provider-env';
import { SignatureV4 } from '@smithy/signature-v4';
import type { ExportJobStarter } from '../ports/exportJobs';
import { StoreUnavailable } from '../ports/eventStore';
import { NodeSha256 } from '../store/s3BlobStore';

export interface LambdaJobStarterOptions {
  /** The export function's name or ARN (ARBITER_EXPORT_JOB_FUNCTION, set by infra/exportJob.ts). */
  functionName: string;
  region: string;
  /** https://lambda.<region>.amazonaws.com by default; AWS_ENDPOINT_URL_LAMBDA (a loopback stand-in in tests). */
  endpoint?: string;
  timeoutMs?: number;
}

/**
 * Starts the export function with Lambda's asynchronous Invoke (InvocationType Event, answered
 * 202 once queued), one SigV4-signed request: the Lambda client would add tens of KB to the
 * commands bundle for this one call. The event is `{ tournamentId, exportId }`; the job reads
 * the rest from its record in the bucket.
 */
export function lambdaJobStarter(options: LambdaJobStarterOptions): ExportJobStarter {
  const endpoint = new URL(options.endpoint ?? `https://lambda.${options.region}.amazonaws.com`);
  const signer = new SignatureV4({ service: 'lambda', region: options.region, credentials: fromEnv(), sha256: NodeSha256 });
  const path = `/2015-03-31/functions/${encodeURIComponent(options.functionName)}/invocations`;
  return {
    async start(job) {
      const body = JSON.stringify({ tournamentId: job.tournamentId, exportId: job.exportId });
      const request = {
        method: 'POST',
        protocol: endpoint.protocol,
        hostname: endpoint.hostname,
        port: endpoint.port ? Number(endpoint.port) : undefined,
        path,
        query: {},
        headers: { host: endpoint.host, 'content-type': 'application/json', 'x-amz-invocation-type': 'Event' },
        body,
      };
      const signed = await signer.sign(request);
      let answer: Response;
      try {
        answer = await fetch(new URL(path, endpoint), { method: 'POST', headers: signed.headers as Record<string, string>, body, signal: AbortSignal.timeout(options.timeoutMs ?? 5_000) });
      } catch (error) {
        throw new StoreUnavailable(error);
      }
      const text = (await answer.text()).slice(0, 1024);
      if (answer.status === 202) return;
      const error = new Error(`Lambda answered Invoke with ${answer.status} ${answer.headers.get('x-amzn-errortype') ?? ''}`.trim());
      // Throttled or failing: the client asks again after Retry-After (503); a refusal is a fault to log.
      throw answer.status === 429 || answer.status >= 500 ? new StoreUnavailable(error) : Object.assign(error, { answered: text });
    },
  };
}
