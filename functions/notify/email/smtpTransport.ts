import { createTransport } from 'nodemailer';
import { DeliveryError } from '../channel';
import type { MailTransport } from './outgoingMail';
import { mailerTransport } from './mailerTransport';
import { settingName } from '../../config/settingNames';

/** Bounded waits: a mail server that hangs holds a delivery ~10 s at most per step, not nodemailer's minutes. */
export const SMTP_TIMEOUTS_MS = { connection: 10_000, greeting: 10_000, socket: 20_000, dns: 10_000 } as const;

export interface SmtpSettings {
  /** smtp://[user:password@]host[:port] (STARTTLS when the server offers it) or smtps://… (TLS from the start). */
  url: string;
  /** The From address: `arbiter@example.org` or `Arbiter <arbiter@example.org>`. */
  from?: string;
}

function serverOf(url: string) {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`${settingName('smtpUrl')} is an smtp:// or smtps:// URL (e.g. smtp://127.0.0.1:2525)`);
  }
  const secure = parsed.protocol === 'smtps:';
  if ((!secure && parsed.protocol !== 'smtp:') || !parsed.hostname || (parsed.pathname && parsed.pathname !== '/') || parsed.search || parsed.hash) {
    throw new Error(`${settingName('smtpUrl')} is an smtp:// or smtps:// URL with a host and nothing after it (e.g. smtp://127.0.0.1:2525)`);
  }
  const user = decodeURIComponent(parsed.username);
  return {
    host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
    secure,
    auth: user ? { user, pass: decodeURIComponent(parsed.password) } : undefined,
  };
}

interface SmtpError {
  code?: string;
  responseCode?: number;
}

/**
 * What a failed send means for the delivery: a 4xx answer (mailbox busy, greylisting) or a
 * lost connection is tried again; a 5xx answer (no such mailbox, refused) is not. The reason
 * carries the code only: a server's text may quote the address.
 */
export function smtpDeliveryErrorOf(error: unknown): DeliveryError {
  const { code, responseCode } = (error ?? {}) as SmtpError;
  if (typeof responseCode === 'number' && responseCode >= 500) return new DeliveryError(false, `the mail server refused the mail (${responseCode})`);
  if (typeof responseCode === 'number' && responseCode >= 400) return new DeliveryError(true, `the mail server deferred the mail (${responseCode})`);
  if (code === 'ETIMEDOUT') return new DeliveryError(true, 'the mail server did not answer in time');
  if (code === 'ECONNECTION' || code === 'ESOCKET' || code === 'EDNS' || code === 'ETLS') return new DeliveryError(true, 'could not reach the mail server');
  if (code === 'EAUTH' || code === 'ENOAUTH') return new DeliveryError(false, 'the mail server refused the sign-in of ARBITER_SMTP_URL');
  if (code === 'EENVELOPE' || code === 'EMESSAGE') return new DeliveryError(false, 'the mail server refused the mail');
  return new DeliveryError(true, 'the mail could not be sent');
}

/** The SMTP server of ARBITER_SMTP_URL, one connection per mail (no pool). */
export function smtpTransport(settings: SmtpSettings): MailTransport {
  const server = serverOf(settings.url);
  const mailer = createTransport({
    ...server,
    connectionTimeout: SMTP_TIMEOUTS_MS.connection,
    greetingTimeout: SMTP_TIMEOUTS_MS.greeting,
    socketTimeout: SMTP_TIMEOUTS_MS.socket,
    dnsTimeout: SMTP_TIMEOUTS_MS.dns,
    pool: false,
    // The mails hold strings only: nodemailer never reads a file or fetches a URL for them.
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  return mailerTransport(mailer, settings.from, smtpDeliveryErrorOf);
}

/** The transport of the parsed settings (settings.ts), or undefined when ARBITER_SMTP_URL is unset (e-mail subscriptions are then refused). */
export function smtpTransportOf(settings: { smtpUrl?: string; smtpFrom?: string }): MailTransport | undefined {
  return settings.smtpUrl ? smtpTransport({ url: settings.smtpUrl, from: settings.smtpFrom }) : undefined;
}
