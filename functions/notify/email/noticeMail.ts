import { DeliveryError, type ChannelTarget, type DeliveryAttempt } from '../channel';
import type { Notice } from '../notice';
import type { OutgoingMail } from './outgoingMail';
import { cleanLink, domainOf, linkWithoutToken, messageIdHeader, oneLine, recipientOf } from './mailText';

const TITLE_MAX = 80;
const PURPOSES_MAX = 120;

/** `Kursk (g-abc123)`: the game as a mail names it, in the subject and the first line. */
/** The end of every mail about a game: why it came, and the one-click way to stop it. */
export const mailFooter = (label: string, unsubscribe: string) => ['-- ', `You get this mail because this address subscribed to game ${label} on Arbiter.`, `Stop these mails: ${unsubscribe}`, ''];

export function gameLabel(notice: Pick<Notice, 'gameTitle' | 'gameId'>): string {
  return `${oneLine(notice.gameTitle, TITLE_MAX)} (${oneLine(notice.gameId, 64)})`;
}

function whatHappened(notice: Notice): string {
  const purposes = notice.purposes.map((p) => `"${oneLine(p, PURPOSES_MAX)}"`).join(', ');
  const what = purposes ? oneLine(purposes, PURPOSES_MAX) : `#${notice.seq} ${oneLine(notice.type, 40)}`;
  return notice.voided ? `${what} (voided)` : what;
}

/**
 * `[Arbiter] Kursk (g-abc123): turn 3, allied to move — "assault on 1204"` for one commit;
 * `[Arbiter] Kursk (g-abc123): turn 4, soviet to move — 5 commits, #12–#16` for a digest
 * (the turn as it stands after the last one).
 */
export function noticeSubject(notices: readonly Notice[]): string {
  const first = notices[0]!;
  const last = notices[notices.length - 1]!;
  const what = notices.length === 1 ? whatHappened(first) : `${notices.length} commits, #${first.seq}–#${last.seq}`;
  return `[Arbiter] ${gameLabel(last)}: ${oneLine(last.turn, 80)} — ${what}`;
}

function noticeLines(notice: Notice): string[] {
  const lines = notice.lines.length ? notice.lines.map((line) => oneLine(line, 2400)) : [`#${notice.seq} ${oneLine(notice.actor, 64)} ${oneLine(notice.type, 40)}`];
  return notice.voided ? [...lines, `  (#${notice.seq} was voided by the organizer)`] : lines;
}

/** The mail of one commit, or the digest of several (in order), for an e-mail subscription. */
export function noticeMail(notices: readonly Notice[], target: ChannelTarget, attempt: DeliveryAttempt, from: string): OutgoingMail {
  if (notices.length === 0) throw new Error('noticeMail: no notice');
  const to = recipientOf(target.address);
  const unsubscribe = cleanLink(target.unsubscribeUrl);
  // Every mail says how to stop them: none is sent without the link.
  if (!unsubscribe) throw new DeliveryError(false, 'the subscription has no unsubscribe link');
  const first = notices[0]!;
  const last = notices[notices.length - 1]!;
  const timeline = linkWithoutToken(last.timelineUrl);
  const heading = notices.length === 1 ? `${gameLabel(last)}: ${oneLine(last.turn, 80)}` : `${gameLabel(last)}: ${notices.length} commits, #${first.seq}–#${last.seq}; now ${oneLine(last.turn, 80)}`;
  const text = [
    heading,
    '',
    ...notices.flatMap(noticeLines),
    '',
    ...(timeline ? [`The game's timeline, where every roll can be checked: ${timeline}`, ''] : []),
    ...mailFooter(gameLabel(last), unsubscribe),
  ].join('\n');
  const gameId = oneLine(first.gameId, 64);
  return {
    to,
    subject: noticeSubject(notices),
    text,
    messageId: messageIdHeader(attempt.messageId, from),
    headers: {
      'List-Unsubscribe': `<${unsubscribe}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      // Mail filters can sort by game; an id with other characters is left out rather than cleaned into another id.
      ...(/^[A-Za-z0-9_-]{1,64}$/.test(gameId) ? { 'List-Id': `<${gameId}.${domainOf(from)}>` } : {}),
      // No out-of-office answers to a machine's mail (RFC 3834).
      'Auto-Submitted': 'auto-generated',
    },
  };
}
