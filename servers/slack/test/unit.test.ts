/** Domain code without MCP: Slack markup, the unfurl decision, timestamps and the channel limits. */
import { describe, expect, it } from 'vitest';
import { mayUnfurl, mentionedUsers, readableText } from '../src/format/mrkdwn.js';
import { messageBody } from '../src/format/rich.js';
import { normalizeTs } from '../src/names.js';
import { ChannelScope, PostScope } from '../src/scope.js';

const names = {
  user: (id: string) => ({ U0ALICE: 'alice' })[id],
  channel: (id: string) => ({ C111: 'eng' })[id],
};

describe('readableText', () => {
  it.each([
    ['<@U0ALICE> hi', '@alice hi'],
    ['<@U0NOBODY|bob> hi', '@bob hi'],
    ['<@U0NOBODY>', '@U0NOBODY'],
    ['in <#C222|ops> and <#C111>', 'in #ops and #eng'],
    ['<!here> <!channel> <!subteam^S1|@devs>', '@here @channel @devs'],
    ['<!date^1392734382^{date}|Feb 18, 2014>', 'Feb 18, 2014'],
    [
      '<https://x.example/a|the doc> and <https://y.example>',
      'the doc (https://x.example/a) and https://y.example',
    ],
    ['<mailto:a@b.example|a@b.example>', 'a@b.example'],
    ['a &lt;b&gt; &amp; c', 'a <b> & c'],
  ])('%s', (input, expected) => {
    expect(readableText(input, names)).toBe(expected);
  });

  it('collects mentioned users', () => {
    expect(mentionedUsers('<@U1> and <@W2|x>')).toEqual(['U1', 'W2']);
  });
});

describe('mayUnfurl (SL-01)', () => {
  const allowed = ['docs.example.com'];
  it.each([
    ['https://docs.example.com/a', true],
    ['<https://docs.example.com/a|docs>', true],
    ['https://sub.docs.example.com/a', true],
    ['https://docs.example.com/a https://attacker.example/c', false],
    ['<https://attacker.example/c|docs.example.com>', false],
    ['https://docs.example.com.attacker.example/', false],
    ['https://docs.example.com@attacker.example/', false],
    ['http://127.0.0.1/x', false],
    ['attacker.example/c?d=1', false],
    ['no links', false],
  ])('%s → %s', (text, expected) => {
    expect(mayUnfurl(text, allowed)).toBe(expected);
  });
  it('never without --unfurl-domains', () => {
    expect(mayUnfurl('https://docs.example.com/a', [])).toBe(false);
  });
});

describe('timestamps and limits', () => {
  it('normalizeTs keeps Slack ts and puts the dot back in 16 digits', () => {
    expect(normalizeTs('1700000000.000100', 'ts')).toBe('1700000000.000100');
    expect(normalizeTs('1700000000000100', 'ts')).toBe('1700000000.000100');
    expect(() => normalizeTs('abc', 'thread_ts')).toThrow(/thread_ts/);
  });
  it('SLACK_CHANNEL_IDS and --post-to take ids only; names pass the first check and are checked once resolved', () => {
    expect(() => ChannelScope.parse('C111,#general')).toThrow(/not a channel ID/);
    const scope = ChannelScope.parse('C111, C222');
    expect(() => scope.check('C999')).toThrow(/SLACK_CHANNEL_IDS C111,C222/);
    expect(() => scope.check('#random')).not.toThrow();
    expect(PostScope.parse('ALL', '--post-to').allows('C999')).toBe(true);
    expect(() => PostScope.parse('C111', '--post-to').check('C999')).toThrow();
  });
});

describe('messageBody (blocks and attachments)', () => {
  it('a block nested 100,000 deep and 100,000 sibling elements are read bounded, without a stack overflow', () => {
    let deep: Record<string, unknown> = { type: 'plain_text', text: 'bottom' };
    for (let i = 0; i < 100_000; i++) deep = { type: 'future_block', inner: deep };
    const wide = {
      type: 'rich_text',
      elements: [
        {
          type: 'rich_text_section',
          elements: Array.from({ length: 100_000 }, () => ({ type: 'text', text: 'w ' })),
        },
      ],
    };
    const body = messageBody({ text: 'top', blocks: [deep, wide] }, names, 4096);
    expect(body.startsWith('top')).toBe(true);
    expect(body).not.toContain('bottom');
    expect(body.length).toBeLessThanOrEqual(4096 + 10);
  });

  it('an unknown block type is walked for its words, not its ids or urls; fallback only when nothing else', () => {
    const body = messageBody(
      {
        blocks: [
          {
            type: 'brand_new_block',
            block_id: 'zzid',
            heading: { type: 'mrkdwn', text: 'hi <@U0ALICE>' },
            image_url: 'https://img.example/x.png',
            fallback: 'not shown',
          },
          { type: 'another_block', fallback: 'only words here' },
        ],
      },
      names,
      10_000,
    );
    expect(body).toBe('hi @alice\nonly words here');
  });
});
