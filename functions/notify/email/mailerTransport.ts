import type { Transporter } from 'nodemailer';
import { DeliveryError } from '../channel';
import type { MailTransport, OutgoingMail } from './outgoingMail';
import { isPlainAddress } from './mailText';
import { settingName } from '../../config/settingNames';

export const DEFAULT_FROM = 'arbiter@localhost';

/** The From setting as a header and as the envelope's address; refused when it is not one address. */
export function fromOf(from: string | undefined): { header: string; address: string } {
  const header = (from ?? DEFAULT_FROM).trim();
  const address = /<([^<>]+)>$/.exec(header)?.[1] ?? header;
  if (/[\r\n]/.test(header) || !isPlainAddress(address)) throw new Error(`${settingName('smtpFrom')} is one address, name@domain or Name <name@domain>: got ${JSON.stringify(header.slice(0, 64))}`);
  return { header, address };
}

/** A nodemailer transporter (SMTP or SES) as a MailTransport; `errorOf` says what each failure means for the delivery. */
export function mailerTransport(mailer: Transporter, from: string | undefined, errorOf: (error: unknown) => DeliveryError): MailTransport {
  const sender = fromOf(from);
  return {
    from: sender.header,
    async send(mail: OutgoingMail) {
      if (!isPlainAddress(mail.to)) throw new DeliveryError(false, 'the subscription has no valid e-mail address');
      try {
        await mailer.sendMail({
          from: sender.header,
          to: mail.to,
          // The envelope is set, never derived from the headers: one recipient, whatever the text says.
          envelope: { from: sender.address, to: [mail.to] },
          subject: mail.subject,
          text: mail.text,
          ...(mail.messageId ? { messageId: mail.messageId } : {}),
          headers: { ...mail.headers },
        });
      } catch (error) {
        throw error instanceof DeliveryError ? error : errorOf(error);
      }
    },
    close: () => mailer.close(),
  };
}
