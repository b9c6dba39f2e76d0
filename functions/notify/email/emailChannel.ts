import type { Channel } from '../channel';
import type { MailTransport } from './outgoingMail';
import { noticeMail } from './noticeMail';
import { reminderMail } from './reminderMail';

/**
 * E-mail subscriptions (issue 33): one mail per commit, or one digest mail for the commits the
 * engine gathered. Only confirmed subscriptions reach a channel (the engine's part); a mail
 * that fails throws the transport's DeliveryError.
 */
export function emailChannel(transport: MailTransport): Channel {
  return {
    async deliver(target, notices, attempt) {
      if (notices.length === 0) return;
      await transport.send(noticeMail(notices, target, attempt, transport.from));
    },
    async remind(target, reminder, attempt) {
      await transport.send(reminderMail(reminder, target, attempt, transport.from));
    },
  };
}
