import { createHash, createHmac } from 'node:crypto';
import type { SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { fromEnv } from '@aws-sdk/credential-provider-env';
import { SignatureV4 } from '@smithy/signature-v4';
import type { SesSend } from '../notify/email/sesTransport';

/** SHA-256 and HMAC-SHA-256 as the signer asks for them (the SDK's Checksum), from node:crypto. */
type Data = string | ArrayBuffer | ArrayBufferView;
const bytes = (data: Data) => (typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data));

class Sha256 {
  private readonly hash;
  constructor(secret?: Data) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: Data) {
    this.hash.update(bytes(data));
  }
  async digest() {
    return new Uint8Array(this.hash.digest());
  }
}

export interface SesSendOptions {
  region: string;
  /** https://email.<region>.amazonaws.com by default; a loopback stand-in in tests. */
  endpoint?: string;
  timeoutMs?: number;
}

/**
 * SESv2 SendEmail as one SigV4-signed HTTPS request, with the function's credentials from its
 * environment: the commands function sends confirmation mails this way because the SESv2
 * client (about 80 KB with its protocol code) does not fit its bundle under the Lambda size guard (infra/bundling.ts).
 * A refusal throws an error shaped as the SDK's (`name`, `$metadata.httpStatusCode`), which
 * sesDeliveryErrorOf reads.
 */
export function signedSesSend(options: SesSendOptions): SesSend {
  const endpoint = new URL(options.endpoint ?? `https://email.${options.region}.amazonaws.com`);
  const signer = new SignatureV4({ service: 'ses', region: options.region, credentials: fromEnv(), sha256: Sha256 });
  return async (input: SendEmailCommandInput) => {
    const body = JSON.stringify(input);
    const request = {
      method: 'POST',
      protocol: endpoint.protocol,
      hostname: endpoint.hostname,
      port: endpoint.port ? Number(endpoint.port) : undefined,
      path: '/v2/email/outbound-emails',
      query: {},
      headers: { host: endpoint.host, 'content-type': 'application/json' },
      body,
    };
    const signed = await signer.sign(request);
    const answer = await fetch(new URL(request.path, endpoint), {
      method: 'POST',
      headers: signed.headers as Record<string, string>,
      body,
      signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
    });
    const text = (await answer.text()).slice(0, 4096);
    if (answer.ok) return text ? (JSON.parse(text) as unknown) : {};
    const type = answer.headers.get('x-amzn-errortype') ?? (safeJson(text) as { __type?: string } | undefined)?.__type ?? '';
    throw Object.assign(new Error(`SES answered ${answer.status}`), { name: type.split(/[:#]/)[0] || `HTTP${answer.status}`, $metadata: { httpStatusCode: answer.status } });
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
