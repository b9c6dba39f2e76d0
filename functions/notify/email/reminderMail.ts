import { DeliveryError, type ChannelTarget, type DeliveryAttempt } from '../channel';
import type { Reminder } from '../reminder';
import type { OutgoingMail } from './outgoingMail';
import { gameLabel, mailFooter } from './noticeMail';
import { cleanLink, linkWithoutToken, messageIdHeader, oneLine, recipientOf } from './mailText';

/** `[Arbiter] Overdue: player2 in Kursk (g-abc123), on this move since 2026-11-27T10:00:00.000Z`. */
export const reminderSubject = (reminder: Reminder) => `[Arbiter] Overdue: ${oneLine(reminder.side, 32)} in ${gameLabel(reminder)}, on this move since ${oneLine(reminder.since, 40)}`;

function limits(reminder: Reminder): string {
  const { perMoveSeconds, totalSeconds } = reminder.timeControl;
  return [perMoveSeconds !== undefined ? `${perMoveSeconds} s per move` : '', totalSeconds !== undefined ? `${totalSeconds} s in total` : ''].filter(Boolean).join(', ');
}

/** The mail telling an e-mail subscription that a side is past the game's time control. */
export function reminderMail(reminder: Reminder, target: ChannelTarget, attempt: DeliveryAttempt, from: string): OutgoingMail {
  const to = recipientOf(target.address);
  const unsubscribe = cleanLink(target.unsubscribeUrl);
  if (!unsubscribe) throw new DeliveryError(false, 'the subscription has no unsubscribe link');
  const timeline = linkWithoutToken(reminder.timelineUrl);
  const side = oneLine(reminder.side, 32);
  const text = [
    `${side} is overdue in ${gameLabel(reminder)}.`,
    '',
    `${side} has been to move since ${oneLine(reminder.since, 40)} and has used ${reminder.usedSeconds} s in the whole game (time control: ${limits(reminder)}).`,
    'This is the only reminder for this move.',
    '',
    ...(timeline ? [`The game's timeline: ${timeline}`, ''] : []),
    ...mailFooter(gameLabel(reminder), unsubscribe),
  ].join('\n');
  return {
    to,
    subject: reminderSubject(reminder),
    text,
    messageId: messageIdHeader(attempt.messageId, from),
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      'Auto-Submitted': 'auto-generated',
    },
  };
}
