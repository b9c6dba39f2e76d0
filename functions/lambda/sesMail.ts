import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { createTransport } from 'nodemailer';

/**
 * The e-mail transport on AWS: nodemailer's SES transport, which builds the MIME message
 * (headers such as List-Unsubscribe included) and sends it raw with SESv2 SendEmail. The
 * e-mail channel (part D, functions/notify/email/) takes it as it takes the SMTP transport
 * locally. `from` must be an identity verified in SES (docs/deploy.md#e-mail-through-amazon-ses).
 */
export function sesMailTransport(client: SESv2Client, from: string) {
  return createTransport({ SES: { sesClient: client, SendEmailCommand } }, { from });
}
