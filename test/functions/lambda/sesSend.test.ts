import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedSesSend } from '../../../functions/lambda/sesSend';
import { DeliveryError } from '../../../functions/notify/channel';
import { confirmationSender } from '../../../functions/notify/email/confirmationMail';
import { sesTransport } from '../../../functions/notify/email/sesTransport';
import { signedRequestHolds } from '../../support/sigv4Reference';

const SECRET = 'loopback-secret-key';
const received: { method?: string; url?: string; headers: IncomingHttpHeaders; body: string }[] = [];
let status = 200;
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (chunk) => (body += chunk));
  req.on('end', () => {
    received.push({ method: req.method, url: req.url, headers: req.headers, body });
    res.statusCode = status;
    if (status !== 200) res.setHeader('x-amzn-ErrorType', 'MessageRejected:http://internal.amazon.com/coral/com.amazonaws.sesv2/');
    res.setHeader('content-type', 'application/json');
    res.end(status === 200 ? JSON.stringify({ MessageId: 'ses-1' }) : JSON.stringify({ message: 'Email address is not verified.' }));
  });
});
let endpoint: string;
const saved = { ...process.env };

beforeAll(async () => {
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'AKIDLOOPBACK', AWS_SECRET_ACCESS_KEY: SECRET, AWS_SESSION_TOKEN: 'session-token' });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  process.env = saved;
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const request = { gameTitle: 'Kursk', gameId: 'g-abc123', confirmUrl: 'https://arbiter.example.org/subscriptions/sub_7/confirm?code=c1', unsubscribeUrl: 'https://arbiter.example.org/subscriptions/sub_7/unsubscribe?code=c1' };

describe('the confirmation mail from the commands function on AWS (functions/lambda/sesSend.ts: SESv2 SendEmail as one signed request)', () => {
  it('sends the confirmation to SESv2 SendEmail, signed with the function\'s credentials for the ses service, From the verified identity', async () => {
    received.length = 0;
    status = 200;
    const send = signedSesSend({ region: 'eu-west-3', endpoint });
    await confirmationSender(sesTransport(send, 'arbiter@league.example')).send('player@example.net', request);
    expect(received).toHaveLength(1);
    const [call] = received;
    expect(call).toMatchObject({ method: 'POST', url: '/v2/email/outbound-emails' });
    const body = JSON.parse(call.body);
    expect(body).toMatchObject({ FromEmailAddress: 'arbiter@league.example', Destination: { ToAddresses: ['player@example.net'] } });
    expect(body.Content.Simple.Body.Text.Data).toContain(request.confirmUrl);
    expect(body.Content.Simple.Headers).toContainEqual({ Name: 'List-Unsubscribe', Value: `<${request.unsubscribeUrl}>` });
    expect(call.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDLOOPBACK\/\d{8}\/eu-west-3\/ses\/aws4_request, /);
    expect(call.headers['x-amz-security-token']).toBe('session-token');
    // The signature covers the body as sent (checked with SigV4 written independently of the SDK's signer).
    expect(call.headers['x-amz-content-sha256']).toBe(createHash('sha256').update(call.body).digest('hex'));
    const headers = Object.fromEntries(Object.entries(call.headers).map(([k, v]) => [k, String(v)]));
    expect(signedRequestHolds({ method: 'POST', url: new URL(call.url!, endpoint), headers }, SECRET)).toBe(true);
    expect(signedRequestHolds({ method: 'POST', url: new URL(call.url!, endpoint), headers }, 'another-secret')).toBe(false);
  });

  it('turns a refusal into a final DeliveryError naming SES\'s error, with no address in it', async () => {
    status = 400;
    const send = signedSesSend({ region: 'eu-west-3', endpoint });
    const error = await confirmationSender(sesTransport(send, 'arbiter@league.example'))
      .send('player@example.net', request)
      .then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(DeliveryError);
    expect(error).toMatchObject({ retryable: false, reason: 'SES refused the mail (MessageRejected)' });
  });
});
