import { describe, expect, it } from 'vitest';
import { discordMessage, slackMessage } from '../../../functions/notify/chatChannels';
import type { Notice } from '../../../functions/notify/notice';

/** A roll whose purpose a player wrote to spoof a link, ping a channel and format the message. */
const hostile: Notice = {
  gameId: 'g-1',
  gameTitle: 'League <b>&</b>',
  seq: 4,
  commitId: 'g-1/4',
  recordedAt: '2026-11-27T10:00:00.000Z',
  actor: 'north',
  type: 'Roll',
  lines: ['#4 north Roll "<!channel> [Verify](https://evil.example) <https://evil.example|Verify> **bold** _i_ ~s~ ||x|| > q `c` \\": 1d6 = 3 [abcd1234]'],
  purposes: ['[Verify](https://evil.example) #1'],
  turn: 'south to move',
  toMove: 'south',
  timelineUrl: 'https://arbiter.example.org/#/games/g-1',
};

describe('chat messages carry player text as text', () => {
  it("Slack: `&`, `<` and `>` escaped in the top-level text, so no <!channel> and no <url|label> link", () => {
    const body = slackMessage([hostile]);
    expect(body.text).toBe(
      'League &lt;b&gt;&amp;&lt;/b&gt; (g-1): south to move\n#4 north Roll "&lt;!channel&gt; [Verify](https://evil.example) &lt;https://evil.example|Verify&gt; **bold** _i_ ~s~ ||x|| &gt; q `c` \\": 1d6 = 3 [abcd1234]',
    );
    // The blocks are plain_text, read as written: unchanged.
    expect(body.blocks[1]).toEqual({ type: 'section', text: { type: 'plain_text', text: hostile.lines[0], emoji: false } });
  });

  it('Discord: markdown and masked links escaped in content, description and fields', () => {
    const body = discordMessage([hostile]);
    const escaped = '\\#4 north Roll "<!channel\\> \\[Verify\\]\\(https://evil.example\\) <https://evil.example\\|Verify\\> \\*\\*bold\\*\\* \\_i\\_ \\~s\\~ \\|\\|x\\|\\| \\> q \\`c\\` \\\\": 1d6 = 3 \\[abcd1234\\]';
    expect(body.content).toBe(escaped);
    expect(body.embeds[0]!.description).toBe(escaped);
    expect(body.embeds[0]!.fields).toEqual([
      { name: 'Turn', value: 'south to move', inline: true },
      { name: 'Purpose', value: '\\[Verify\\]\\(https://evil.example\\) \\#1', inline: true },
    ]);
    expect(body.allowed_mentions).toEqual({ parse: [] });
  });
});
