import type { SESv2Client } from '@aws-sdk/client-sesv2';
import type { Channel, ConfirmationSender } from '../notify/channel';
import { confirmationSender } from '../notify/email/confirmationMail';
import { emailChannel } from '../notify/email/emailChannel';
import { sesTransport } from '../notify/email/sesTransport';

/**
 * E-mail on AWS (docs/deploy.md#e-mail-through-amazon-ses): part D's mails through SES, From
 * the identity the stack names (ARBITER_SES_FROM). The delivery function sends the notices,
 * the commands function the confirmation mails; only these two bundle nodemailer.
 */
export function sesMail(client: SESv2Client, from: string): { channel: Channel; confirmations: ConfirmationSender } {
  const transport = sesTransport(client, from);
  return { channel: emailChannel(transport), confirmations: confirmationSender(transport) };
}
