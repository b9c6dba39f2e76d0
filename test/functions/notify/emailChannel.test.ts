import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryError, type ChannelTarget, type DeliveryAttempt } from '../../../functions/notify/channel';
import type { Notice } from '../../../functions/notify/notice';
import { emailChannel } from '../../../functions/notify/email/emailChannel';
import { confirmationSender } from '../../../functions/notify/email/confirmationMail';
import { smtpTransport, smtpTransportOf } from '../../../functions/notify/email/smtpTransport';
import { readSettings } from '../../../functions/config/settings';
import type { MailTransport } from '../../../functions/notify/email/outgoingMail';
import { startLoopbackSmtp, type LoopbackSmtp } from '../../support/loopbackSmtp';

const ORIGIN = 'https://arbiter.example.org';
const UNSUBSCRIBE = `${ORIGIN}/subscriptions/sub_7/unsubscribe?code=uc-123`;

function notice(seq: number, overrides: Partial<Notice> = {}): Notice {
  return {
    gameId: 'g-abc123',
    gameTitle: 'Kursk',
    seq,
    commitId: `g-abc123/${seq}`,
    recordedAt: `2026-11-27T09:${String(seq).padStart(2, '0')}:00.000Z`,
    actor: 'allied',
    type: 'Roll',
    lines: [`#${seq} allied Roll 2d6 → 3 4 = 7 "assault on 1204" [ab12cd${seq}]`],
    purposes: ['assault on 1204'],
    turn: 'turn 3, allied to move',
    toMove: 'allied',
    // The link a side's page would have: its token must not reach a mail.
    timelineUrl: `${ORIGIN}/#/games/g-abc123?token=tok-SECRET-allied`,
    ...overrides,
  };
}

const target = (overrides: Partial<ChannelTarget> = {}): ChannelTarget => ({ subscriptionId: 'sub_7', kind: 'email', address: 'player@example.net', unsubscribeUrl: UNSUBSCRIBE, ...overrides });
const attempt = (first: number, last = first, number = 1): DeliveryAttempt => ({ messageId: `msg_sub_7_${first}_${last}`, timestamp: 1_795_000_000, number });

async function deliveryError(promise: Promise<unknown>): Promise<DeliveryError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DeliveryError);
  return error as DeliveryError;
}

let smtp: LoopbackSmtp;
let transport: MailTransport;

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  transport = smtpTransport({ url: smtp.url, from: 'Arbiter <arbiter@example.org>' });
});
afterAll(async () => {
  transport.close();
  await smtp.close();
});
afterEach(() => {
  smtp.mails.length = 0;
  smtp.recipientsTried.length = 0;
});

describe('e-mail channel: one mail per commit', () => {
  it('names the game, its id, the turn and the purpose in the subject, and carries the lines, the timeline and the unsubscribe link', async () => {
    await emailChannel(transport).deliver(target(), [notice(12)], attempt(12));
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0]!;
    expect(mail.envelope).toEqual({ from: 'arbiter@example.org', to: ['player@example.net'] });
    expect(mail.header('subject')).toBe('[Arbiter] Kursk (g-abc123): turn 3, allied to move — "assault on 1204"');
    expect(mail.header('from')).toBe('Arbiter <arbiter@example.org>');
    expect(mail.header('to')).toBe('player@example.net');
    expect(mail.text).toContain('#12 allied Roll 2d6 → 3 4 = 7 "assault on 1204" [ab12cd12]');
    expect(mail.text).toContain(`${ORIGIN}/#/games/g-abc123\n`);
    expect(mail.text).toContain(`Stop these mails: ${UNSUBSCRIBE}`);
    expect(mail.header('list-unsubscribe')).toBe(`<${UNSUBSCRIBE}>`);
    expect(mail.header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.header('list-id')).toBe('<g-abc123.example.org>');
    expect(mail.header('auto-submitted')).toBe('auto-generated');
    expect(mail.header('message-id')).toBe('<msg_sub_7_12_12@example.org>');
  });

  it('puts no token in the mail, not even the one in the timeline link it was given', async () => {
    await emailChannel(transport).deliver(target(), [notice(12, { timelineUrl: `${ORIGIN}/#/games/g-abc123?token=tok-SECRET-allied&view=map` })], attempt(12));
    expect(smtp.mails[0]!.raw).not.toContain('tok-SECRET');
    expect(smtp.mails[0]!.text).toContain(`${ORIGIN}/#/games/g-abc123?view=map`);
  });

  it('sends a retry of the same delivery with the same Message-ID, so a mail client shows it once', async () => {
    await emailChannel(transport).deliver(target(), [notice(12)], attempt(12, 12, 1));
    await emailChannel(transport).deliver(target(), [notice(12)], attempt(12, 12, 2));
    expect(smtp.mails.map((m) => m.header('message-id'))).toEqual(['<msg_sub_7_12_12@example.org>', '<msg_sub_7_12_12@example.org>']);
  });

  it('names every purpose of a multi-roll, and a commit without one by its number and type', async () => {
    await emailChannel(transport).deliver(target(), [notice(13, { purposes: ['attack on 1204', 'defender retreat'] })], attempt(13));
    await emailChannel(transport).deliver(target(), [notice(14, { type: 'PassTurn', purposes: [], turn: 'turn 3, soviet to move' })], attempt(14));
    expect(smtp.mails.map((m) => m.header('subject'))).toEqual([
      '[Arbiter] Kursk (g-abc123): turn 3, allied to move — "attack on 1204", "defender retreat"',
      '[Arbiter] Kursk (g-abc123): turn 3, soviet to move — #14 PassTurn',
    ]);
  });

  it('shortens a very long title in the subject, never through the middle of a character', async () => {
    await emailChannel(transport).deliver(target(), [notice(12, { gameTitle: `${'x'.repeat(78)}🎲🎲 and more` })], attempt(12));
    expect(smtp.mails[0]!.header('subject')).toBe(`[Arbiter] ${'x'.repeat(78)}… (g-abc123): turn 3, allied to move — "assault on 1204"`);
  });

  it('keeps a title in another script readable in the subject', async () => {
    await emailChannel(transport).deliver(target(), [notice(12, { gameTitle: 'Курская дуга — Прохоровка' })], attempt(12));
    expect(smtp.mails[0]!.header('subject')).toBe('[Arbiter] Курская дуга — Прохоровка (g-abc123): turn 3, allied to move — "assault on 1204"');
  });
});

describe('e-mail channel: a digest', () => {
  it('sends several commits as one mail: their count and numbers in the subject, every line in order', async () => {
    const notices = [notice(12), notice(13, { purposes: ['counterattack'], lines: ['#13 soviet Roll 1d6 → 5 "counterattack" [ffee0013]'] }), notice(14, { type: 'PassTurn', purposes: [], lines: ['#14 soviet PassTurn to allied [ffee0014]'], turn: 'turn 4, allied to move' })];
    await emailChannel(transport).deliver(target({ subscriptionId: 'sub_8' }), notices, attempt(12, 14));
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0]!;
    expect(mail.header('subject')).toBe('[Arbiter] Kursk (g-abc123): turn 4, allied to move — 3 commits, #12–#14');
    expect(mail.header('message-id')).toBe('<msg_sub_7_12_14@example.org>');
    const lines = mail.text.split('\n');
    const at = (text: string) => lines.findIndex((l) => l.startsWith(text));
    expect(at('#12 ')).toBeGreaterThan(0);
    expect(at('#13 ')).toBe(at('#12 ') + 1);
    expect(at('#14 ')).toBe(at('#13 ') + 1);
    expect(mail.text).toContain(`Stop these mails: ${UNSUBSCRIBE}`);
  });

  it('marks a voided commit', async () => {
    await emailChannel(transport).deliver(target(), [notice(12, { voided: true })], attempt(12));
    expect(smtp.mails[0]!.header('subject')).toBe('[Arbiter] Kursk (g-abc123): turn 3, allied to move — "assault on 1204" (voided)');
    expect(smtp.mails[0]!.text).toContain('(#12 was voided by the organizer)');
  });
});

describe('e-mail channel: player text is data', () => {
  it('adds no header and no recipient for a title, a purpose or a line with line breaks', async () => {
    const hostile = notice(12, {
      gameTitle: 'Kursk\r\nBcc: evil@example.com\r\nX-Injected: yes',
      purposes: ['assault\r\nCc: evil2@example.com'],
      turn: 'turn 3\nX-Turn: injected',
      lines: ['#12 allied Roll\r\n.\r\nMAIL FROM:<evil@example.com>'],
    });
    await emailChannel(transport).deliver(target(), [hostile], attempt(12));
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0]!;
    const names = mail.headers.map(([name]) => name.toLowerCase());
    expect(names).not.toContain('bcc');
    expect(names).not.toContain('cc');
    expect(names).not.toContain('x-injected');
    expect(names).not.toContain('x-turn');
    expect(mail.envelope.to).toEqual(['player@example.net']);
    expect(smtp.recipientsTried).toEqual(['player@example.net']);
    expect(mail.header('subject')).toBe('[Arbiter] Kursk Bcc: evil@example.com X-Injected: yes (g-abc123): turn 3 X-Turn: injected — "assault Cc: evil2@example.com"');
    expect(mail.text).toContain('#12 allied Roll . MAIL FROM:<evil@example.com>');
  });

  it('refuses, for good, an address that is a list or carries a header', async () => {
    for (const address of ['player@example.net, evil@example.com', 'player@example.net\r\nBcc: evil@example.com', 'Player <player@example.net>']) {
      const error = await deliveryError(emailChannel(transport).deliver(target({ address }), [notice(12)], attempt(12)));
      expect(error.retryable).toBe(false);
    }
    expect(smtp.recipientsTried).toEqual([]);
    expect(smtp.mails).toEqual([]);
  });

  it('sends nothing without an unsubscribe link', async () => {
    const error = await deliveryError(emailChannel(transport).deliver(target({ unsubscribeUrl: undefined }), [notice(12)], attempt(12)));
    expect(error.retryable).toBe(false);
    expect(smtp.mails).toEqual([]);
  });
});

describe('e-mail channel: failures', () => {
  it('does not retry a recipient the server refuses (5xx), and the reason quotes neither the address nor the server', async () => {
    smtp.refuse('gone@example.net', 550);
    const error = await deliveryError(emailChannel(transport).deliver(target({ address: 'gone@example.net' }), [notice(12)], attempt(12)));
    expect(error.retryable).toBe(false);
    expect(error.reason).toBe('the mail server refused the mail (550)');
    expect(smtp.mails).toEqual([]);
  });

  it('retries a recipient the server defers (4xx), and delivers once the server takes it', async () => {
    smtp.refuse('busy@example.net', 451);
    const error = await deliveryError(emailChannel(transport).deliver(target({ address: 'busy@example.net' }), [notice(12)], attempt(12)));
    expect(error.retryable).toBe(true);
    expect(error.reason).toBe('the mail server deferred the mail (451)');
    smtp.allow('busy@example.net');
    await emailChannel(transport).deliver(target({ address: 'busy@example.net' }), [notice(12)], attempt(12, 12, 2));
    expect(smtp.mails.map((m) => m.envelope.to)).toEqual([['busy@example.net']]);
  });

  it('retries when the mail server cannot be reached', async () => {
    const down = await startLoopbackSmtp();
    const url = down.url;
    await down.close();
    const unreachable = smtpTransport({ url });
    try {
      const error = await deliveryError(emailChannel(unreachable).deliver(target(), [notice(12)], attempt(12)));
      expect(error.retryable).toBe(true);
      expect(error.reason).toBe('could not reach the mail server');
    } finally {
      unreachable.close();
    }
  });
});

describe('confirmation mail (double opt-in)', () => {
  it('sends one mail with the confirm link, saying nothing more comes unless it is followed', async () => {
    const confirmUrl = `${ORIGIN}/subscriptions/sub_7/confirm?code=cc-456`;
    await confirmationSender(transport).send('player@example.net', { gameTitle: 'Kursk', gameId: 'g-abc123', confirmUrl, unsubscribeUrl: UNSUBSCRIBE });
    expect(smtp.mails).toHaveLength(1);
    const mail = smtp.mails[0]!;
    expect(mail.envelope.to).toEqual(['player@example.net']);
    expect(mail.header('subject')).toBe('[Arbiter] Confirm mails for Kursk (g-abc123)');
    expect(mail.text).toContain(`open this link and press the button on the page:\n${confirmUrl}\n`);
    expect(mail.text).toContain('If you did not ask, ignore this mail: no other mail will be sent to you about this game.');
    expect(mail.header('list-unsubscribe')).toBe(`<${UNSUBSCRIBE}>`);
  });

  it('fails as a delivery does when the server refuses the address', async () => {
    smtp.refuse('nobody@example.net', 550);
    const error = await deliveryError(
      confirmationSender(transport).send('nobody@example.net', { gameTitle: 'Kursk', gameId: 'g-abc123', confirmUrl: `${ORIGIN}/subscriptions/sub_7/confirm?code=c`, unsubscribeUrl: UNSUBSCRIBE }),
    );
    expect(error.retryable).toBe(false);
  });
});

describe('SMTP settings', () => {
  it('is off without ARBITER_SMTP_URL, and From defaults to arbiter@localhost', async () => {
    expect(smtpTransportOf(readSettings({}).settings)).toBeUndefined();
    const fromDefault = smtpTransportOf(readSettings({ ARBITER_SMTP_URL: smtp.url }).settings)!;
    try {
      expect(fromDefault.from).toBe('arbiter@localhost');
      await emailChannel(fromDefault).deliver(target(), [notice(12)], attempt(12));
      expect(smtp.mails[0]!.envelope.from).toBe('arbiter@localhost');
      expect(smtp.mails[0]!.header('message-id')).toBe('<msg_sub_7_12_12@localhost>');
    } finally {
      fromDefault.close();
    }
  });

  it('refuses a URL that is not smtp:// or smtps://, naming the setting and not repeating a password', () => {
    for (const url of ['http://127.0.0.1:2525', 'smtp://', 'not a url', 'smtp://user:hunter2@127.0.0.1:2525/path']) {
      expect(() => smtpTransport({ url })).toThrow(/ARBITER_SMTP_URL/);
      expect(() => smtpTransport({ url })).not.toThrow(/hunter2/);
    }
  });

  it('refuses a From that is not one address', () => {
    for (const from of ['arbiter@example.org, evil@example.com', 'Arbiter <arbiter@example.org>\r\nBcc: evil@example.com', 'no address']) {
      expect(() => smtpTransport({ url: smtp.url, from })).toThrow(/ARBITER_SMTP_FROM/);
    }
  });
});
