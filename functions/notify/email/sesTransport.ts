import type { SendEmailCommandInput } from '@aws-sdk/client-sesv2';
import { DeliveryError } from '../channel';
import { fromOf } from './mailerTransport';
import { isPlainAddress } from './mailText';
import type { MailTransport } from './outgoingMail';

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

const utf8 = (data: string) => ({ Data: data, Charset: 'UTF-8' });

/** SESv2 SendEmail: the SDK's client (`(input) => client.send(new SendEmailCommand(input))`), or one signed request where the client does not fit (functions/lambda/sesSend.ts). */
export type SesSend = (input: SendEmailCommandInput) => Promise<unknown>;

/**
 * Mails through Amazon SES on AWS: SESv2 SendEmail with simple content (subject, text and the
 * same headers as over SMTP), which SES builds into MIME itself, so the Lambda bundles carry
 * no MIME library (nodemailer alone is 236 KB, against the Lambda size guard of infra/bundling.ts). SES sets the
 * Message-ID. The From address's identity must be verified in SES first.
 */
export function sesTransport(send: SesSend, from: string | undefined): MailTransport {
  const sender = fromOf(from);
  return {
    from: sender.header,
    async send(mail) {
      if (!isPlainAddress(mail.to)) throw new DeliveryError(false, 'the subscription has no valid e-mail address');
      try {
        await send({
          FromEmailAddress: sender.header,
          // One recipient, whatever the text says.
          Destination: { ToAddresses: [mail.to] },
          Content: {
            Simple: {
              Subject: utf8(mail.subject),
              Body: { Text: utf8(mail.text) },
              Headers: Object.entries(mail.headers).map(([Name, Value]) => ({ Name, Value })),
            },
          },
        });
      } catch (error) {
        throw sesDeliveryErrorOf(error);
      }
    },
    close: () => {},
  };
}
