import type { Channel, ConfirmationSender } from '../notify/channel';
import { confirmationSender } from '../notify/email/confirmationMail';
import { emailChannel } from '../notify/email/emailChannel';
import { sesTransport, type SesSend } from '../notify/email/sesTransport';

/**
 * E-mail on AWS (docs/deploy.md#e-mail-through-amazon-ses): part D's mails through SES, From
 * the identity the stack names (ARBITER_SES_FROM), with the SESv2 client of the delivery function
 * (the commands function sends only confirmation mails, with one signed request: sesSend.ts).
 * No Lambda bundle carries a MIME library: SES builds the message.
 */
export function sesMail(send: SesSend, from: string): { channel: Channel; confirmations: ConfirmationSender } {
  const transport = sesTransport(send, from);
  return { channel: emailChannel(transport), confirmations: confirmationSender(transport) };
}
