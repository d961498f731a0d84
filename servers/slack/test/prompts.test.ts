/**
 * The catch_up_on_channel prompt and the completion of its channel, fenced by SLACK_CHANNEL_IDS
 * (a channel outside never completes, and a prompt for one is refused), through the built server
 * against the fake Slack, in both protocol eras.
 */
import type { GetPromptResult } from '@modelcontextprotocol/client';
import type { BuiltServer } from '@refmcp/test-harness';
import type { FakeSlack } from '@refmcp/test-harness/fakes/slack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let slack: FakeSlack;
let scoped: BuiltServer;
let modern: BuiltServer;
let open: BuiltServer;
// Generous: a loaded machine must not turn a fast fake's answer into a cut-off.
const patient = { MCP_COMPLETION_TIMEOUT_MS: '60000' };
beforeAll(async () => {
  ({ slack } = await startScene());
  const env = { ...patient, SLACK_CHANNEL_IDS: 'C111,C222' };
  [scoped, modern, open] = await Promise.all([
    startServer(slack, [], { env }),
    startServer(slack, [], { env, era: 'modern' }),
    startServer(slack, [], { env: patient }),
  ]);
});
afterAll(async () => {
  await Promise.all([scoped?.close(), modern?.close(), open?.close()]);
  await slack?.close();
});

const complete = (conn: BuiltServer, value: string) =>
  conn.client.complete({
    ref: { type: 'ref/prompt', name: 'catch_up_on_channel' },
    argument: { name: 'channel', value },
  });
const text = (r: GetPromptResult) => (r.messages[0]?.content as { text?: string } | undefined)?.text ?? '';

describe('channel completion', () => {
  it.each(['legacy', 'modern'])(
    'offers the SLACK_CHANNEL_IDS channels only, by name (%s era)',
    async (era) => {
      const conn = era === 'legacy' ? scoped : modern;
      expect(conn.client.getServerCapabilities()?.completions).toEqual({});
      expect((await complete(conn, '')).completion.values.sort()).toEqual(['#eng', '#ops']);
      expect((await complete(conn, 'e')).completion.values).toEqual(['#eng']);
      expect((await complete(conn, '#rand')).completion.values).toEqual([]);
    },
  );

  it('without SLACK_CHANNEL_IDS, the channels the token can see (archived ones left out)', async () => {
    const all = (await complete(open, '')).completion.values;
    expect(all).toEqual(expect.arrayContaining(['#general', '#eng', '#random']));
    expect(all).not.toContain('#old');
    expect((await complete(open, 'ran')).completion.values).toEqual(['#random']);
  });
});

describe('catch_up_on_channel', () => {
  it('is listed and names the tools to use', async () => {
    const { prompts } = await scoped.client.listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required])])).toEqual([
      [
        'catch_up_on_channel',
        [
          ['channel', true],
          ['since', false],
        ],
      ],
    ]);
    const r = text(
      await scoped.client.getPrompt({
        name: 'catch_up_on_channel',
        arguments: { channel: '#eng', since: '3d' },
      }),
    );
    expect(r).toContain(
      'slack_get_channel_history (channel_id "#eng", oldest: the Unix time 259200 seconds before now)',
    );
    expect(r).toContain('slack_get_thread_replies');
  });

  it('refuses a bad since and a channel outside SLACK_CHANNEL_IDS (-32602)', async () => {
    await expect(
      scoped.client.getPrompt({
        name: 'catch_up_on_channel',
        arguments: { channel: '#eng', since: 'forever' },
      }),
    ).rejects.toThrow(/24h, 3d or 1w/);
    await expect(
      scoped.client.getPrompt({ name: 'catch_up_on_channel', arguments: { channel: 'C999' } }),
    ).rejects.toThrow(/outside the channels/);
  });
});
