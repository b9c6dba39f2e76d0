import type { ConfirmationSender } from '../channel';
import type { MailTransport, OutgoingMail } from './outgoingMail';
import { gameLabel } from './noticeMail';
import { cleanLink, recipientOf } from './mailText';

export interface ConfirmationRequest {
  gameTitle: string;
  gameId: string;
  confirmUrl: string;
  unsubscribeUrl: string;
}

/**
 * The one mail an address gets before it confirms (double opt-in): what was asked, the link
 * that confirms, and that nothing more comes if it is ignored.
 */
export function confirmationMail(address: string, request: ConfirmationRequest): OutgoingMail {
  const to = recipientOf(address);
  const confirm = cleanLink(request.confirmUrl);
  const unsubscribe = cleanLink(request.unsubscribeUrl);
  if (!confirm || !unsubscribe) throw new Error('confirmationMail: the confirm and unsubscribe links must be http(s) URLs');
  const game = gameLabel(request);
  return {
    to,
    subject: `[Arbiter] Confirm mails for ${game}`,
    text: [
      `Someone, probably you, asked Arbiter to send this address a mail for every move of game ${game}.`,
      '',
      'To confirm, open this link and press the button on the page:',
      confirm,
      '',
      'If you did not ask, ignore this mail: no other mail will be sent to you about this game.',
      '',
      '-- ',
      `To refuse for good: ${unsubscribe}`,
      '',
    ].join('\n'),
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'Auto-Submitted': 'auto-generated',
    },
  };
}

/** The subscribe step's sender of confirmation mails, through the channel's transport. */
export function confirmationSender(transport: MailTransport): ConfirmationSender {
  return { send: (address, request) => transport.send(confirmationMail(address, request)) };
}
