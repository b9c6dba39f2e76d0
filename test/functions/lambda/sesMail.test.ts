import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { sesMailTransport } from '../../../functions/lambda/sesMail';

const ses = mockClient(SESv2Client);

/** A header of a raw message, its folded lines joined. */
function headerOf(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  return head.split(/\r?\n/).find((line) => line.startsWith(`${name}: `))?.slice(name.length + 2);
}

/** RFC 2047 Q-encoded words decoded (the white space between two of them dropped). */
const decodedWords = (value: string) =>
  value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?UTF-8\?Q\?([^?]*)\?=/gi, (_, text: string) =>
    Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
  );

describe('the e-mail transport on AWS (functions/lambda/sesMail.ts: nodemailer\'s SES transport)', () => {
  it('sends the whole MIME message raw through SESv2 SendEmail, From the verified identity, its unsubscribe headers kept', async () => {
    const sent: { FromEmailAddress?: string; Destination?: unknown; Content?: { Raw?: { Data?: Uint8Array } } }[] = [];
    ses.on(SendEmailCommand).callsFake(async (input) => {
      sent.push(input);
      return { MessageId: '0102-ses-id' };
    });
    const transport = sesMailTransport(new SESv2Client({ region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }), 'arbiter@example.org');
    const info = await transport.sendMail({
      to: 'player@example.net',
      subject: 'Kursk (g-1) turn 3: Roll "attack on Prokhorovka"',
      text: '#5 red Roll 3d6 attack on Prokhorovka → 4 5 6 [ab12cd34]',
      headers: { 'List-Unsubscribe': '<https://arbiter.example.org/subscriptions/s1/unsubscribe?code=c>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    expect(info.messageId).toContain('0102-ses-id');
    expect(sent).toHaveLength(1);
    const raw = Buffer.from(sent[0].Content!.Raw!.Data!).toString('utf8');
    expect(headerOf(raw, 'From')).toBe('arbiter@example.org');
    expect(headerOf(raw, 'To')).toBe('player@example.net');
    expect(decodedWords(headerOf(raw, 'Subject')!)).toBe('Kursk (g-1) turn 3: Roll "attack on Prokhorovka"');
    expect(headerOf(raw, 'List-Unsubscribe')).toBe('<https://arbiter.example.org/subscriptions/s1/unsubscribe?code=c>');
    expect(headerOf(raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(sent[0].FromEmailAddress).toBe('arbiter@example.org');
  });

  it('rejects when SES refuses (an unverified identity, the sandbox): the engine retries, then dead-letters', async () => {
    ses.on(SendEmailCommand).rejects(Object.assign(new Error('Email address is not verified.'), { name: 'MessageRejected' }));
    const transport = sesMailTransport(new SESv2Client({ region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }), 'arbiter@example.org');
    await expect(transport.sendMail({ to: 'player@example.net', subject: 's', text: 't' })).rejects.toThrow('Email address is not verified.');
  });
});
