import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A fresh signing secret as the Standard Webhooks scheme writes it: `whsec_` and 32 random bytes in base64. */
export const newWebhookSecret = () => `${PREFIX}${randomBytes(32).toString('base64')}`;

/**
 * Standard Webhooks (https://www.standardwebhooks.com/): `v1,` and the base64 HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<body>`, keyed by the base64-decoded part of the secret after `whsec_`.
 */
export function webhookSignature(secret: string, messageId: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${messageId}.${timestamp}.${body}`).digest('base64')}`;
}
