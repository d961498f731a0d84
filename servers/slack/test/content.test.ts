/**
 * What the model reads: Slack markup made readable (names for `<@U…>`, `#name`, `label (url)`),
 * ALL-06 hostile invisible characters neutralised and the text labelled as data, permalinks, and
 * a huge page from Slack bounded in bytes with a marker and a cursor that continues inside it.
 */
import { callChecked } from '@refmcp/test-harness';
import { type FakeSlack, HUGE_MESSAGE_BYTES, THREAD_TS } from '@refmcp/test-harness/fakes/slack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScene, startServer } from './support.js';

let slack: FakeSlack;
beforeAll(async () => {
  ({ slack } = await startScene());
});
afterAll(() => slack.close());

interface Msg {
  ts: string;
  text: string;
  author?: string;
  permalink?: string;
  threadTs?: string;
}

describe('readable messages', () => {
  it('mentions become names, channel links #names, links "label (url)"; permalinks on every message', async () => {
    const conn = await startServer(slack);
    try {
      const r = await callChecked(conn, 'slack_get_thread_replies', {
        channel_id: 'C111',
        thread_ts: THREAD_TS,
      });
      expect(r.isError).toBeFalsy();
      const [parent, first, second] = (r.structuredContent as { messages: Msg[] }).messages;
      expect(parent?.text).toBe(
        'Deploy plan for #ops, cc @bob: see the runbook (https://docs.example.com/deploy)',
      );
      expect(parent?.author).toBe('alice');
      expect(parent?.permalink).toBe('https://fake-team.slack.com/archives/C111/p1700000000000100');
      expect(first?.permalink).toMatch(/\/archives\/C111\/p\d{16}\?thread_ts=1700000000\.000100&cid=C111$/);
      expect(second?.text).toBe('@alice shipped, also posted to channel');
      expect(r.text).toContain('Deploy plan for #ops, cc @bob');
      expect(r.text).not.toMatch(/<@U|<#C|<https?:/);
    } finally {
      await conn.close();
    }
  });

  it('ALL-06 zero-width, bidi and tag characters in a message are neutralised and the text is labelled as data', async () => {
    const conn = await startServer(slack);
    try {
      const r = await callChecked(conn, 'slack_get_channel_history', { channel_id: 'C111' });
      const all = JSON.stringify(r);
      expect(all).not.toMatch(/[\u200B\u202E\u202C]/u);
      expect(all).not.toMatch(/[\u{E0000}-\u{E007F}]/u);
      expect(r.text).toMatch(/untrusted/i);
      expect(r.structuredContent).toHaveProperty('neutralized');
      expect(r.text).toContain('hidden tag text');
    } finally {
      await conn.close();
    }
  });
});

describe('bounded pages', () => {
  it('a 1.2 MB page of huge messages is cut to the budget with a marker, and the cursor continues inside it', async () => {
    const conn = await startServer(slack);
    try {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const r = await callChecked(conn, 'slack_get_channel_history', {
          channel_id: 'C0HUGE',
          limit: 60,
          ...(cursor ? { cursor } : {}),
        });
        expect(r.isError).toBeFalsy();
        expect(Buffer.byteLength(r.text)).toBeLessThan(64 * 1024);
        const s = r.structuredContent as { messages: Msg[]; nextCursor?: string };
        for (const m of s.messages) {
          expect(Buffer.byteLength(m.text)).toBeLessThan(HUGE_MESSAGE_BYTES);
          expect(m.text).toMatch(/\[truncated: \d+ more bytes;/);
        }
        if (pages === 0)
          expect(r.text).toMatch(
            /\[truncated: \d+ more messages of this page did not fit; call again with cursor\]/,
          );
        seen.push(...s.messages.map((m) => m.ts));
        cursor = s.nextCursor;
        pages++;
      } while (cursor && pages < 20);
      expect(pages).toBeGreaterThan(1);
      expect(seen).toHaveLength(60);
      expect(new Set(seen).size).toBe(60);
    } finally {
      await conn.close();
    }
  });
});
