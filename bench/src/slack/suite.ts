/**
 * The Slack suite (`--only slack`): our server and the official
 * @modelcontextprotocol/server-slack 2025.4.25 against the same local fake Slack Web API (the
 * harness's fake on 127.0.0.1; no network; the official server, which hard-codes
 * https://slack.com/api/, reaches it through a fetch-redirect preload), alternated, one run:
 *   SL1 cold start to tools/list answered — no goal, reported
 *   SL2 model bytes of tools/list (name + description + inputSchema) over the 8 tools both list
 *       (ours with --post-to all, which serves the posting tools) — goal ≤ 1.0×; each tool in the notes
 *   SL3 a 100-message history page: our text against the official server's text (the raw API JSON
 *       it passes through) — goal ≤ 0.3×, and a check that every message's ts, author, words,
 *       thread and reactions are still in ours; SL3s the same for our structuredContent.
 */
import {
  BOT_TOKEN,
  type FakeSlack,
  seedScene,
  slackTs,
  startFakeSlack,
} from '@refmcp/test-harness/fakes/slack';
import {
  coldStartNote,
  coldStartRow,
  coldStartRuns,
  firstAnswer,
  outputSizeRuns,
  textSizeRow,
} from '../api-rows.js';
import {
  type ApiSession,
  fetchRedirectPreload,
  jsonBytes,
  locateApiServers,
  startApiSession,
} from '../api-servers.js';
import { type Answer, row } from '../report.js';
import type { ServerUnderTest } from '../servers.js';
import { alternate, type Context, cellOf, type WorkloadResult } from '../workloads/common.js';
import { toolModelBytes } from '../workloads/context.js';

const CHANNEL = 'C0BENCH';
const HISTORY_ARGS = { channel_id: CHANNEL, limit: 100 };
const PEOPLE = ['U0ALICE', 'U0BOB', 'U0CAROL'];

/** 100 messages in C0BENCH, like a busy engineering channel: mentions, links, threads, reactions. */
function seedBench(slack: FakeSlack): void {
  seedScene(slack);
  const s = slack.state;
  s.addChannel('bench', { id: CHANNEL, members: ['U0BOT', ...PEOPLE] });
  for (let i = 0; i < 100; i++) {
    const who = PEOPLE[i % 3] ?? 'U0ALICE';
    const other = PEOPLE[(i + 1) % 3] ?? 'U0BOB';
    const text =
      i % 5 === 0
        ? `<@${other}> build ${1200 + i} failed on main: see <https://ci.example.com/builds/${1200 + i}|the log>`
        : i % 5 === 1
          ? `Deployed release 2.${i} to staging, smoke tests green. Next: production at 14:00 in <#C222|ops>`
          : `Reviewing PR #${400 + i}: the retry loop in the client looks off by one, left a comment`;
    const m = s.addMessage(CHANNEL, text, {
      ts: slackTs(1_700_200_000 + i * 60, 100),
      user: who,
      ...(i % 4 === 0 ? { reactions: { eyes: [other], '+1': [who, other] } } : {}),
    });
    if (i % 10 === 0)
      s.addReply(CHANNEL, m.ts, 'On it', { ts: slackTs(1_700_200_000 + i * 60 + 5, 200), user: other });
  }
}

/**
 * `m` as Slack answers a message written in one of its clients: with `client_msg_id` and the
 * `rich_text` block the client sends beside the text (docs.slack.dev/block-kit, "Rich text"). The
 * fake answers without them (its answers must validate against @slack/web-api's recorded response
 * types, which cannot describe a rich_text section); this is the realistic size of the same page.
 */
function asWrittenInClient(m: RawMessage, i: number): Record<string, unknown> {
  const elements = m.text
    .split(/(<[^>]+>)/)
    .filter(Boolean)
    .map((part) => {
      const inner = /^<(.*)>$/.exec(part)?.[1];
      if (!inner) return { type: 'text', text: part };
      const [target = '', label] = inner.split('|');
      if (target.startsWith('@')) return { type: 'user', user_id: target.slice(1) };
      if (target.startsWith('#')) return { type: 'channel', channel_id: target.slice(1) };
      return { type: 'link', url: target, ...(label ? { text: label } : {}) };
    });
  return {
    ...m,
    client_msg_id: `0b0c${String(i).padStart(4, '0')}-5f1e-4c1a-9d2b-6a7e8f9a0b1c`,
    blocks: [
      {
        type: 'rich_text',
        block_id: `b${String(i).padStart(4, '0')}`,
        elements: [{ type: 'rich_text_section', elements }],
      },
    ],
  };
}

interface RawMessage {
  ts: string;
  user: string;
  text: string;
  reply_count?: number;
  reactions?: { name: string }[];
}

export async function runSlackSuite(base: Context): Promise<WorkloadResult> {
  const servers = locateApiServers('slack', '@modelcontextprotocol/server-slack');
  const ctx: Context = { ...base, servers };
  const timeoutMs = ctx.sizes.callTimeoutMs;
  for (const side of ['ours', 'official'] as const)
    ctx.log(
      `slack ${side}: ${servers[side].label}${servers[side].missing ? ` — ${servers[side].missing}` : ''}`,
    );
  if (servers.ours.missing) throw new Error(`our slack server is ${servers.ours.missing}`);
  const slack = await startFakeSlack();
  try {
    seedBench(slack);
    const preload = fetchRedirectPreload(
      ctx.dataRoot,
      'slack-redirect.mjs',
      'https://slack.com/api/',
      slack.apiUrl,
    );
    const session = (server: ServerUnderTest, withPreload: boolean): Promise<ApiSession> =>
      startApiSession(server, {
        // The official server requires SLACK_TEAM_ID; ours reads it (Enterprise Grid) but not needs it.
        env: {
          SLACK_BOT_TOKEN: BOT_TOKEN,
          SLACK_TEAM_ID: 'T0TEAM',
          ...(server.side === 'ours' ? { SLACK_API_URL: slack.apiUrl } : {}),
        },
        ...(server.side === 'ours' ? { args: ['--post-to', 'all'] } : {}),
        timeoutMs,
        ...(withPreload && server.side === 'official' ? { preload } : {}),
      });

    const coldRuns = await coldStartRuns(ctx, 'slack', session);

    const listRuns = await alternate(ctx, 1, 'slack tools/list', async (server) => {
      const s = await session(server, false);
      try {
        const { tools } = await s.client.listTools(undefined, { timeout: timeoutMs });
        return new Map(tools.map((t) => [t.name, toolModelBytes(t)]));
      } finally {
        await s.close();
      }
    });
    const oursTools = listRuns.ours.results[0];
    const officialTools = listRuns.official.results[0];
    const common =
      oursTools && officialTools ? [...officialTools.keys()].filter((n) => oursTools.has(n)) : [];
    const sum = (m: Map<string, number> | undefined) => common.reduce((t, n) => t + (m?.get(n) ?? 0), 0);

    const sizeRuns = await outputSizeRuns(ctx, 'slack', session, 'slack_get_channel_history', HISTORY_ARGS);

    // The raw API answer (what the reference passes on, as compact JSON) and what a model needs from it.
    const raw = (await (
      await fetch(`${slack.apiUrl}conversations.history?channel=${CHANNEL}&limit=100`, {
        headers: { authorization: `Bearer ${BOT_TOKEN}` },
      })
    ).json()) as { messages: RawMessage[] };
    const rawBytes = jsonBytes(raw);
    const realisticBytes = jsonBytes({ ...raw, messages: raw.messages.map(asWrittenInClient) });
    const ours = sizeRuns.ours.results[0];
    const dropped: string[] = [];
    if (ours) {
      const messages = ((ours.structured as { messages?: unknown[] } | undefined)?.messages ?? []) as {
        ts: string;
        user?: string;
        text: string;
        replyCount?: number;
        reactions?: string;
      }[];
      for (const m of raw.messages) {
        const o = messages.find((x) => x.ts === m.ts);
        const words = m.text.replace(/<[^>]*>/g, ' ').match(/[A-Za-z0-9.:#-]{4,}/g) ?? [];
        if (!o) dropped.push(`${m.ts} missing`);
        else if (
          o.user !== m.user ||
          !words.every((w) => o.text.includes(w)) ||
          (o.replyCount ?? 0) !== (m.reply_count ?? 0) ||
          !(m.reactions ?? []).every((r) => o.reactions?.includes(r.name))
        )
          dropped.push(`${m.ts} differs`);
      }
    }
    const perTool = common.map((n) => `${n} ${oursTools?.get(n)}/${officialTools?.get(n)}`).join(', ');
    const answers: Answer[] = [
      firstAnswer(
        'slack_get_channel_history (100 messages)',
        `slack_get_channel_history ${JSON.stringify(HISTORY_ARGS)}`,
        sizeRuns,
      ),
    ];
    return {
      rows: [
        coldStartRow('SL1', 'slack', ctx, coldRuns),
        row({
          id: 'SL2',
          name: `slack model bytes, the ${common.length} tools both list`,
          unit: 'bytes',
          better: 'lower',
          ours: oursTools ? { value: sum(oursTools) } : { error: listRuns.ours.error ?? 'no list' },
          official: officialTools
            ? { value: sum(officialTools) }
            : { error: listRuns.official.error ?? 'no list' },
          goal: { ratioAtMost: 1, text: '≤ 1.0×' },
        }),
        textSizeRow(
          'SL3',
          'slack history page of 100 messages, text a model reads (vs official text = raw API JSON)',
          sizeRuns,
          "every message's ts, author, words, thread and reactions kept",
          ours ? dropped.length === 0 : undefined,
        ),
        row({
          id: 'SL3r',
          name: 'slack history page of 100 messages, text a model reads (vs the raw API JSON with the rich_text blocks Slack clients add)',
          unit: 'bytes',
          better: 'lower',
          ours: cellOf(sizeRuns.ours, (r) => r.bytes),
          official: { value: realisticBytes },
          goal: { ratioAtMost: 0.3, text: '≤ 0.3×' },
        }),
        row({
          id: 'SL3s',
          name: 'slack history page of 100 messages, structuredContent (vs the raw API JSON with rich_text blocks)',
          unit: 'bytes',
          better: 'lower',
          ours: cellOf(sizeRuns.ours, (r) => r.structuredBytes),
          official: { value: realisticBytes },
        }),
      ],
      answers,
      notes: [
        coldStartNote('slack', coldRuns),
        `slack model bytes per tool, ours/official: ${perTool || '—'}`,
        `slack history: raw API JSON is ${rawBytes} bytes from the fake, ${realisticBytes} with the client_msg_id and rich_text blocks messages written in Slack's clients carry; ours text/raw = ${ours ? (ours.bytes / rawBytes).toFixed(3) : '—'}, structured/raw = ${ours?.structuredBytes ? (ours.structuredBytes / rawBytes).toFixed(3) : '—'}; fields a model needs kept: ${ours ? (dropped.length ? `NO (${dropped.slice(0, 5).join(', ')})` : 'yes, all 100 messages') : '—'}`,
        'slack: the official server reaches the fake through a preload that rewrites https://slack.com/api/ in fetch (it has no base-URL setting); cold starts run without it',
      ],
    };
  } finally {
    await slack.close();
  }
}
