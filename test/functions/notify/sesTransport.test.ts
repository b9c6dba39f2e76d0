import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { describe, expect, it } from 'vitest';
import { DeliveryError } from '../../../functions/notify/channel';
import { emailChannel } from '../../../functions/notify/email/emailChannel';
import { sesTransport } from '../../../functions/notify/email/sesTransport';

const UNSUBSCRIBE = 'https://arbiter.example.org/subscriptions/sub_7/unsubscribe?code=uc-123';
const notice = {
  gameId: 'g-abc123',
  gameTitle: 'Kursk',
  seq: 12,
  commitId: 'g-abc123/12',
  recordedAt: '2026-11-27T09:12:00.000Z',
  actor: 'allied',
  type: 'Roll',
  lines: ['#12 allied Roll 2d6 → 3 4 = 7 "assault on 1204" [ab12cd12]'],
  purposes: ['assault on 1204'],
  turn: 'turn 3, allied to move',
  toMove: 'allied',
  timelineUrl: 'https://arbiter.example.org/#/games/g-abc123',
};
const target = { subscriptionId: 'sub_7', kind: 'email' as const, address: 'player@example.net', unsubscribeUrl: UNSUBSCRIBE };
const attempt = { messageId: 'msg_sub_7_12_12', timestamp: 1_795_000_000, number: 1 };

/** An SESv2 client that keeps what it is asked to send, or fails as told. */
function stubSes(failure?: object) {
  const sent: Array<{
    input: { FromEmailAddress?: string; Destination?: { ToAddresses?: string[] }; Content: { Simple: { Subject: { Data: string }; Body: { Text: { Data: string } }; Headers: { Name: string; Value: string }[] } } };
  }> = [];
  const client = {
    config: { region: async () => 'eu-west-1' },
    async send(command: (typeof sent)[number]) {
      if (failure) throw Object.assign(new Error('refused by the stub'), failure);
      sent.push(command);
      return { MessageId: '0102018c-stub' };
    },
  };
  return { client: client as unknown as SESv2Client, sent };
}

describe('e-mail through SES', () => {
  it('sends the same mail as over SMTP, to the one recipient', async () => {
    const ses = stubSes();
    await emailChannel(sesTransport((input) => ses.client.send(new SendEmailCommand(input)), 'Arbiter <arbiter@example.org>')).deliver(target, [notice], attempt);
    expect(ses.sent).toHaveLength(1);
    const { input } = ses.sent[0]!;
    expect(input.Destination?.ToAddresses).toEqual(['player@example.net']);
    expect(input.FromEmailAddress).toBe('Arbiter <arbiter@example.org>');
    // Simple content: SES builds the MIME message, so no MIME library weighs on the Lambda bundles.
    const { Subject, Body, Headers } = input.Content.Simple;
    expect(Subject.Data).toBe('[Arbiter] Kursk (g-abc123): turn 3, allied to move — "assault on 1204"');
    expect(Headers).toEqual(expect.arrayContaining([{ Name: 'List-Unsubscribe', Value: `<${UNSUBSCRIBE}>` }, { Name: 'List-Unsubscribe-Post', Value: 'List-Unsubscribe=One-Click' }]));
    expect(Body.Text.Data).toContain('#12 allied Roll 2d6 → 3 4 = 7 "assault on 1204" [ab12cd12]');
  });

  it('tries again when SES throttles, not when it rejects the mail', async () => {
    const outcome = async (failure: object) => {
      const error = await emailChannel(sesTransport((input) => stubSes(failure).client.send(new SendEmailCommand(input)), undefined))
        .deliver(target, [notice], attempt)
        .then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(DeliveryError);
      return { retryable: (error as DeliveryError).retryable, reason: (error as DeliveryError).reason };
    };
    expect(await outcome({ name: 'TooManyRequestsException', $metadata: { httpStatusCode: 429 } })).toEqual({ retryable: true, reason: 'SES deferred the mail (TooManyRequestsException)' });
    expect(await outcome({ name: 'MessageRejected', $metadata: { httpStatusCode: 400 } })).toEqual({ retryable: false, reason: 'SES refused the mail (MessageRejected)' });
    expect(await outcome({ name: 'InternalFailure', $metadata: { httpStatusCode: 500 } })).toEqual({ retryable: true, reason: 'SES failed (InternalFailure)' });
  });
});
