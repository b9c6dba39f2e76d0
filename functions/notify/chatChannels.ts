import { DeliveryError, type Channel, type ChannelTarget, type DeliveryAttempt } from './channel';
import type { Notice } from './notice';
import type { Reminder } from './reminder';
import { postJson, type TargetPolicy } from './targetCheck';

const cut = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** A notice's lines, a voided one marked. */
const linesOf = (notice: Notice) => notice.lines.map((line) => (notice.voided ? `${line} (voided)` : line));

const headingOf = (notices: readonly Notice[]) => {
  const last = notices.at(-1)!;
  return `${last.gameTitle || last.gameId} (${last.gameId})${last.turn ? `: ${last.turn}` : ''}`;
};

/** Slack's own escaping of `&`, `<`, `>`: no `<!channel>`, no `<https://…|label>` link in player text. */
export const slackEscaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Discord markdown taken literally: no masked link `[label](url)`, no bold, spoiler, quote, heading or code. */
export const discordEscaped = (text: string) => text.replace(/[\\[\]()*_~|>#`]/g, (c) => `\\${c}`);

const purposesOf = (notices: readonly Notice[]) => [...new Set(notices.flatMap((notice) => notice.purposes))];

const DISCORD_CONTENT_MAX = 2000;
const SLACK_TEXT_MAX = 3000;
const discordText = (notices: readonly Notice[]) => discordEscaped(notices.flatMap(linesOf).join('\n'));
const slackText = (notices: readonly Notice[]) => slackEscaped(`${headingOf(notices)}\n${notices.flatMap(linesOf).join('\n')}`);
/** The embed's description (at most 4096) carries the same text as the content: the content's limit is the one that binds. */
const discordFits = (notices: readonly Notice[]) => discordText(notices).length <= DISCORD_CONTENT_MAX;
const slackFits = (notices: readonly Notice[]) => slackText(notices).length <= SLACK_TEXT_MAX;

/**
 * Discord's incoming webhook: `{ content, embeds }`. Player text is sent as text with no
 * mention parsed (`allowed_mentions`), so a purpose reading "@everyone" pings nobody.
 */
export function discordMessage(notices: readonly Notice[]) {
  const last = notices.at(-1)!;
  const purposes = purposesOf(notices);
  return {
    content: cut(discordText(notices), DISCORD_CONTENT_MAX),
    allowed_mentions: { parse: [] as string[] },
    embeds: [
      {
        title: cut(headingOf(notices), 256),
        url: last.timelineUrl,
        description: cut(discordText(notices), 4096),
        fields: [
          ...(last.turn ? [{ name: 'Turn', value: cut(discordEscaped(last.turn), 1024), inline: true }] : []),
          ...(purposes.length > 0 ? [{ name: 'Purpose', value: cut(discordEscaped(purposes.join('\n')), 1024), inline: true }] : []),
        ],
        timestamp: last.recordedAt,
      },
    ],
  };
}

/** Slack's incoming webhook: `{ text, blocks }`; player text in plain_text blocks, so none of it is read as markup. */
export function slackMessage(notices: readonly Notice[]) {
  const last = notices.at(-1)!;
  const lines = notices.flatMap(linesOf);
  const purposes = purposesOf(notices);
  const plain = (text: string, max = 3000) => ({ type: 'plain_text', text: cut(text, max), emoji: false });
  return {
    text: cut(slackText(notices), SLACK_TEXT_MAX),
    blocks: [
      { type: 'header', text: plain(headingOf(notices), 150) },
      { type: 'section', text: plain(lines.join('\n')) },
      ...(purposes.length > 0 ? [{ type: 'context', elements: [plain(`Purpose: ${purposes.join('; ')}`)] }] : []),
      { type: 'context', elements: [{ type: 'mrkdwn', text: `<${last.timelineUrl}|Open the timeline>` }] },
    ],
  };
}

/** `⏰ player2 is overdue in Kursk (g-abc123): on this move since 2026-11-27T10:00:00.000Z`; line breaks in a title become spaces. */
export function reminderLine(reminder: Reminder): string {
  const title = cut((reminder.gameTitle || reminder.gameId).replace(/\s+/g, ' '), 200);
  return `⏰ ${reminder.side} is overdue in ${title} (${reminder.gameId}): on this move since ${reminder.since}`;
}

export const discordReminder = (reminder: Reminder) => ({ content: discordEscaped(reminderLine(reminder)), allowed_mentions: { parse: [] as string[] } });

export const slackReminder = (reminder: Reminder) => ({
  text: slackEscaped(reminderLine(reminder)),
  blocks: [{ type: 'section', text: { type: 'plain_text', text: reminderLine(reminder), emoji: false } }],
});

function chatChannel(format: (notices: readonly Notice[]) => unknown, fits: (notices: readonly Notice[]) => boolean, formatReminder: (reminder: Reminder) => unknown, policy: TargetPolicy): Channel {
  const post = async (target: ChannelTarget, payload: unknown) => {
    if (!target.url) throw new DeliveryError(false, 'the subscription has no URL');
    await postJson(target.url, JSON.stringify(payload), {}, policy);
  };
  return {
    deliver: (target: ChannelTarget, notices: readonly Notice[], _attempt: DeliveryAttempt) => post(target, format(notices)),
    remind: (target: ChannelTarget, reminder: Reminder, _attempt: DeliveryAttempt) => post(target, formatReminder(reminder)),
    fits,
  };
}

export const discordChannel = (policy: TargetPolicy) => chatChannel(discordMessage, discordFits, discordReminder, policy);
export const slackChannel = (policy: TargetPolicy) => chatChannel(slackMessage, slackFits, slackReminder, policy);
