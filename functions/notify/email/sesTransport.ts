import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { createTransport } from 'nodemailer';
import { DeliveryError } from '../channel';
import type { MailTransport } from './outgoingMail';
import { mailerTransport } from './mailerTransport';

interface AwsError {
  name?: string;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: number };
}

// SES refuses these for this mail or this account until someone changes something: trying again would not help.
const FINAL = new Set(['MessageRejected', 'MailFromDomainNotVerifiedException', 'BadRequestException', 'NotFoundException', 'AccountSuspendedException', 'InvalidParameterValue']);

/** What an SES failure means for the delivery: throttling, a paused account or a fault on AWS's side is tried again. */
export function sesDeliveryErrorOf(error: unknown): DeliveryError {
  const { name, $retryable, $metadata } = (error ?? {}) as AwsError;
  if (name && FINAL.has(name)) return new DeliveryError(false, `SES refused the mail (${name})`);
  if ($retryable || name === 'TooManyRequestsException' || name === 'LimitExceededException' || name === 'SendingPausedException') return new DeliveryError(true, `SES deferred the mail (${name ?? 'throttled'})`);
  const status = $metadata?.httpStatusCode;
  if (status !== undefined && status >= 400 && status < 500) return new DeliveryError(false, `SES refused the mail (${name ?? status})`);
  return new DeliveryError(true, name || status ? `SES failed (${name ?? status})` : 'could not reach SES');
}

/**
 * Mails through Amazon SES (SESv2 SendEmail, raw content) on AWS: the same mails as over SMTP.
 * The From address's domain must be verified in SES first.
 */
export function sesTransport(client: SESv2Client, from: string | undefined): MailTransport {
  const mailer = createTransport({ SES: { sesClient: client, SendEmailCommand }, disableFileAccess: true, disableUrlAccess: true });
  return mailerTransport(mailer, from, sesDeliveryErrorOf);
}
