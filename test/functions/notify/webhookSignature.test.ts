import { createHmac, timingSafeEqual } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, webhookSignature } from '../../../functions/notify/webhookSignature';

/** A receiver's check written from the scheme's text, not from our signer: every `v1,` signature in the header, compared in constant time. */
function receiverAccepts(secret: string, headers: { id: string; timestamp: string; signature: string }, body: string): boolean {
  const key = Buffer.from(secret.split('_')[1]!, 'base64');
  const expected = createHmac('sha256', key).update(`${headers.id}.${headers.timestamp}.${body}`).digest();
  return headers.signature.split(' ').some((part) => {
    const [version, value] = part.split(',');
    const given = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

describe('Standard Webhooks signatures', () => {
  it("match the scheme's published test vector", () => {
    expect(webhookSignature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('are accepted by an independent check, and refused for another body, id, time or secret', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = '{"type":"arbiter.commits"}';
    const signature = webhookSignature(secret, 'msg_s1_2_2', 1_800_000_000, body);
    expect(receiverAccepts(secret, { id: 'msg_s1_2_2', timestamp: '1800000000', signature }, body)).toBe(true);
    expect(receiverAccepts(secret, { id: 'msg_s1_2_2', timestamp: '1800000000', signature }, `${body} `)).toBe(false);
    expect(receiverAccepts(secret, { id: 'msg_s1_3_3', timestamp: '1800000000', signature }, body)).toBe(false);
    expect(receiverAccepts(secret, { id: 'msg_s1_2_2', timestamp: '1800000001', signature }, body)).toBe(false);
    expect(receiverAccepts(newWebhookSecret(), { id: 'msg_s1_2_2', timestamp: '1800000000', signature }, body)).toBe(false);
  });
});
