import { SendEmailCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { createTransport } from 'nodemailer';

/**
 * STAND-IN for part D's `sesTransport` (functions/notify/email/sesTransport.ts), which also
 * sorts SES's refusals into retryable or final: at the merge notifyEngine.ts takes D's, and
 * this file and its test go. The e-mail transport on AWS: nodemailer's SES transport builds
 * the MIME message (List-Unsubscribe included) and sends it raw with SESv2 SendEmail, From
 * an identity verified in SES (docs/deploy.md#e-mail-through-amazon-ses). Nodemailer may not
 * read files or URLs for a mail's content.
 */
export function sesMailTransport(client: SESv2Client, from: string) {
  return createTransport({ SES: { sesClient: client, SendEmailCommand }, disableFileAccess: true, disableUrlAccess: true }, { from });
}
