/**
 * The fake Slack driven by the field's client, @slack/web-api's WebClient (slackApiUrl at the
 * fake, allowAbsoluteUrls off, no retries), through every method it serves — and checked against
 * the closed schemas generated from the client's own response types: every method it registers is
 * one the client knows, every reply this file's traffic produced validates, and the check fails
 * on a field real Slack does not send.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LogLevel, WebClient } from '@slack/web-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordTraffic } from '../src/fake-api/index.js';
import {
  ALICE,
  addGroupDm,
  addMessages,
  addReplies,
  addUsers,
  BOB,
  BOT_TOKEN,
  type FakeSlack,
  HUGE_MESSAGE_BYTES,
  NARROW_BOT_TOKEN,
  NO_DM_BOT_TOKEN,
  seedScene,
  startFakeSlack,
  THREAD_TS,
  USER_TOKEN,
} from '../src/fakes/slack/index.js';
import { SLACK_SPECS, slackClientMethods, slackSpec } from '../src/fakes/slack/spec.js';
import { checkTraffic, undescribedRoutes, validateReply } from '../src/spec/index.js';

const recording = recordTraffic('fake-slack-traffic-');

let slack: FakeSlack;
let bot: WebClient;
let user: WebClient;

/** A WebClient as the Slack server configures it, pointed at the fake. */
const client = (token?: string, rejectRateLimitedCalls = false) =>
  new WebClient(token, {
    slackApiUrl: slack.apiUrl,
    allowAbsoluteUrls: false,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls,
    logLevel: LogLevel.ERROR,
  });

/** The error a call rejects with (the client's WebAPIPlatformError / RateLimitedError). */
async function failure(
  promise: Promise<unknown>,
): Promise<{ code: string; data?: Record<string, unknown>; retryAfter?: number }> {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; data?: Record<string, unknown>; retryAfter?: number };
  }
  throw new Error('expected the call to fail');
}

beforeAll(async () => {
  slack = await startFakeSlack();
  seedScene(slack);
  bot = client(BOT_TOKEN);
  user = client(USER_TOKEN);
});

afterAll(async () => {
  await slack.close();
  recording.stop();
});

describe('fake Slack through @slack/web-api', () => {
  it('auth.test names the bot or the user, and the token scopes arrive as x-oauth-scopes', async () => {
    const me = await bot.auth.test();
    expect(me).toMatchObject({
      ok: true,
      user_id: 'U0BOT',
      bot_id: expect.stringMatching(/^B/),
      team_id: 'T0TEAM',
    });
    expect(me.response_metadata?.scopes).toContain('channels:history');
    expect((await user.auth.test()).user_id).toBe(ALICE);
    expect((await failure(client('xoxb-WRONG').auth.test())).data?.error).toBe('invalid_auth');
    expect((await failure(client().auth.test())).data?.error).toBe('not_authed');
    const sent = slack.api.requests.at(-2);
    expect(sent?.headers.authorization).toBe('Bearer xoxb-WRONG');
    expect(sent?.headers['content-type']).toMatch(/x-www-form-urlencoded/);
  });

  it('conversations.list pages public and private conversations by next_cursor', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await bot.conversations.list({
        types: 'public_channel,private_channel,im',
        limit: 4,
        ...(cursor ? { cursor } : {}),
      });
      expect(page.channels?.length).toBeLessThanOrEqual(4);
      seen.push(...(page.channels ?? []).map((c) => c.id ?? ''));
      cursor = page.response_metadata?.next_cursor || undefined;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThan(2);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(
      expect.arrayContaining(['C0GENERAL', 'C111', 'C0OUT', 'G0PRIV1', 'C0PRIV2', 'D0ALICE']),
    );
    expect(seen).not.toContain('C0SECRET');
    const publicOnly = await bot.conversations.list({ exclude_archived: true });
    expect(publicOnly.channels?.every((c) => c.is_private === false && !c.is_archived)).toBe(true);
    expect(publicOnly.channels?.find((c) => c.id === 'C0OUT')?.is_member).toBe(false);
    expect((await failure(bot.conversations.list({ cursor: 'forged' }))).data?.error).toBe('invalid_cursor');
    expect((await failure(bot.conversations.list({ types: 'nope' }))).data?.error).toBe('invalid_types');
  });

  it('conversations.info answers visible conversations and channel_not_found otherwise', async () => {
    expect((await bot.conversations.info({ channel: 'G0PRIV1' })).channel).toMatchObject({
      name: 'priv-one',
      is_private: true,
    });
    expect((await failure(bot.conversations.info({ channel: 'C0SECRET' }))).data?.error).toBe(
      'channel_not_found',
    );
    expect((await user.conversations.info({ channel: 'C0SECRET' })).channel?.name).toBe('secret');
  });

  it('DMs and group DMs: types im/mpim, missing_scope naming im:read/mpim:read without them', async () => {
    addGroupDm(slack.state);
    const dms = await bot.conversations.list({ types: 'im,mpim' });
    expect(dms.channels?.map((c) => [c.id, c.is_im, c.is_mpim])).toEqual([
      ['D0ALICE', true, undefined],
      ['G0GROUP', false, true],
    ]);
    expect(dms.channels?.[0]?.user).toBe(ALICE);
    const noDm = client(NO_DM_BOT_TOKEN);
    expect((await noDm.conversations.list({ types: 'public_channel' })).ok).toBe(true);
    const im = await failure(noDm.conversations.list({ types: 'im' }));
    expect(im.data).toMatchObject({ error: 'missing_scope', needed: 'im:read' });
    const mpim = await failure(noDm.conversations.list({ types: 'public_channel,mpim' }));
    expect(mpim.data).toMatchObject({ error: 'missing_scope', needed: 'mpim:read' });
    const history = await failure(noDm.conversations.history({ channel: 'G0GROUP' }));
    expect(history.data).toMatchObject({ error: 'missing_scope', needed: 'mpim:history' });
    expect((await bot.conversations.history({ channel: 'G0GROUP' })).messages?.[0]?.text).toBe('group hello');
  });

  it('conversations.history: newest first, oldest/latest/inclusive windows, cursor pages', async () => {
    slack.state.addChannel('bulk', { id: 'C0BULK', members: ['U0BOT'] });
    const all = addMessages(slack.state, 'C0BULK', 500);
    const got: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await bot.conversations.history({
        channel: 'C0BULK',
        limit: 100,
        ...(cursor ? { cursor } : {}),
      });
      got.push(...(page.messages ?? []).map((m) => m.ts ?? ''));
      cursor = page.response_metadata?.next_cursor || undefined;
      expect(page.has_more).toBe(cursor !== undefined);
      pages++;
    } while (cursor);
    expect(pages).toBe(5);
    expect(got).toEqual([...all].reverse());
    const window = await bot.conversations.history({ channel: 'C0BULK', oldest: all[10], latest: all[20] });
    expect(window.messages?.map((m) => m.ts)).toEqual(all.slice(11, 20).reverse());
    const inclusive = await bot.conversations.history({
      channel: 'C0BULK',
      oldest: all[10],
      latest: all[20],
      inclusive: true,
    });
    expect(inclusive.messages).toHaveLength(11);
    const eng = await bot.conversations.history({ channel: 'C111' });
    const parent = eng.messages?.find((m) => m.ts === THREAD_TS);
    expect(parent).toMatchObject({ reply_count: 2, thread_ts: THREAD_TS, user: ALICE });
    expect(parent?.text).toContain('<#C222|ops>');
    const broadcast = eng.messages?.find((m) => m.text?.includes('also posted to channel'));
    expect(broadcast).toMatchObject({
      subtype: 'thread_broadcast',
      thread_ts: THREAD_TS,
      root: { ts: THREAD_TS },
    });
  });

  it('conversations.history refuses as Slack does: not_in_channel, missing_scope with needed/provided', async () => {
    expect((await failure(bot.conversations.history({ channel: 'C0OUT' }))).data?.error).toBe(
      'not_in_channel',
    );
    const scope = (await failure(bot.conversations.history({ channel: 'C0SCOPE' }))).data;
    expect(scope).toMatchObject({ error: 'missing_scope', needed: 'channels:history' });
    const narrow = (await failure(client(NARROW_BOT_TOKEN).conversations.history({ channel: 'C111' }))).data;
    expect(narrow).toMatchObject({
      error: 'missing_scope',
      needed: 'channels:history',
      provided: 'chat:write',
    });
    expect((await failure(bot.conversations.history({ channel: 'C404' }))).data?.error).toBe(
      'channel_not_found',
    );
    expect((await user.conversations.history({ channel: 'C0OUT' })).messages).toHaveLength(1);
  });

  it('conversations.replies: the parent leads every page, the cursor walks the replies', async () => {
    const thread = await bot.conversations.replies({ channel: 'C111', ts: THREAD_TS });
    expect(thread.messages?.map((m) => m.user)).toEqual([ALICE, BOB, 'U0CAROL']);
    expect(thread.messages?.[1]).toMatchObject({ thread_ts: THREAD_TS, parent_user_id: ALICE });
    slack.state.addMessage('C0BULK', 'big thread', { ts: '1690000000.000100' });
    const replies = addReplies(slack.state, 'C0BULK', '1690000000.000100', 250);
    const got: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await bot.conversations.replies({
        channel: 'C0BULK',
        ts: '1690000000.000100',
        limit: 100,
        ...(cursor ? { cursor } : {}),
      });
      expect(page.messages?.[0]?.ts).toBe('1690000000.000100');
      got.push(...(page.messages ?? []).slice(1).map((m) => m.ts ?? ''));
      cursor = page.response_metadata?.next_cursor || undefined;
    } while (cursor);
    expect(got).toEqual(replies);
    slack.repliesParent = 'first-page';
    const firstPage = await bot.conversations.replies({
      channel: 'C0BULK',
      ts: '1690000000.000100',
      limit: 100,
    });
    const next = await bot.conversations.replies({
      channel: 'C0BULK',
      ts: '1690000000.000100',
      limit: 100,
      cursor: firstPage.response_metadata?.next_cursor ?? '',
    });
    expect(next.messages?.[0]?.ts).toBe(replies[99]);
    slack.repliesParent = 'every-page';
    expect((await failure(bot.conversations.replies({ channel: 'C111', ts: '1.000000' }))).data?.error).toBe(
      'thread_not_found',
    );
  });

  it('chat.postMessage posts where the bot is a member and records unfurl_links/unfurl_media/thread_ts', async () => {
    const posted = await bot.chat.postMessage({
      channel: 'C0TEST',
      text: 'done <https://a.example/x>',
      unfurl_links: false,
      unfurl_media: false,
    });
    expect(posted).toMatchObject({
      ok: true,
      channel: 'C0TEST',
      message: { text: 'done <https://a.example/x>', user: 'U0BOT' },
    });
    const reply = await bot.chat.postMessage({
      channel: 'C0TEST',
      text: 'in thread',
      thread_ts: THREAD_TS,
      unfurl_links: false,
      unfurl_media: false,
    });
    expect(reply.message?.thread_ts).toBe(THREAD_TS);
    const calls = slack.calls('chat.postMessage').slice(-2);
    expect(calls.map((c) => [c.unfurl_links, c.unfurl_media, c.thread_ts])).toEqual([
      ['false', 'false', undefined],
      ['false', 'false', THREAD_TS],
    ]);
    expect(
      (await bot.conversations.replies({ channel: 'C0TEST', ts: THREAD_TS })).messages?.at(-1)?.text,
    ).toBe('in thread');
    expect((await failure(bot.chat.postMessage({ channel: 'C0OUT', text: 'x' }))).data?.error).toBe(
      'not_in_channel',
    );
    expect((await failure(bot.chat.postMessage({ channel: 'C0SECRET', text: 'x' }))).data?.error).toBe(
      'channel_not_found',
    );
    expect((await failure(bot.chat.postMessage({ channel: 'C0OLD', text: 'x' }))).data?.error).toBe(
      'is_archived',
    );
    expect((await failure(bot.chat.postMessage({ channel: 'C111', text: '' }))).data?.error).toBe('no_text');
  });

  it('reactions.add adds once; already_reacted, invalid_name, message_not_found', async () => {
    expect((await bot.reactions.add({ channel: 'C111', timestamp: THREAD_TS, name: 'eyes' })).ok).toBe(true);
    const again = await failure(bot.reactions.add({ channel: 'C111', timestamp: THREAD_TS, name: 'eyes' }));
    expect(again.data?.error).toBe('already_reacted');
    expect(
      (await failure(bot.reactions.add({ channel: 'C111', timestamp: THREAD_TS, name: 'Bad Name' }))).data
        ?.error,
    ).toBe('invalid_name');
    expect(
      (await failure(bot.reactions.add({ channel: 'C111', timestamp: '1.000001', name: 'eyes' }))).data
        ?.error,
    ).toBe('message_not_found');
    const parent = (await bot.conversations.history({ channel: 'C111' })).messages?.find(
      (m) => m.ts === THREAD_TS,
    );
    expect(parent?.reactions).toEqual([{ name: 'eyes', users: ['U0BOT'], count: 1 }]);
  });

  it('users.list pages by cursor; users.info and users.profile.get; user_not_found', async () => {
    addUsers(slack.state, 40);
    const ids: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await bot.users.list({ limit: 15, ...(cursor ? { cursor } : {}) });
      ids.push(...(page.members ?? []).map((m) => m.id ?? ''));
      cursor = page.response_metadata?.next_cursor || undefined;
    } while (cursor);
    expect(ids).toHaveLength(slack.state.users.size);
    expect((await bot.users.list({})).members).toHaveLength(slack.state.users.size);
    const carol = await bot.users.info({ user: 'U0CAROL' });
    expect(carol.user).toMatchObject({
      name: 'carol',
      real_name: 'Carol Chen',
      profile: { title: 'PM', display_name: 'cc' },
    });
    expect((await bot.users.profile.get({ user: BOB })).profile?.real_name).toBe('Bob Builder');
    expect((await user.users.profile.get({})).profile?.email).toBe('alice@example.com');
    expect((await failure(bot.users.info({ user: 'U404' }))).data?.error).toBe('user_not_found');
    expect((await failure(bot.users.profile.get({ user: 'U404' }))).data?.error).toBe('user_not_found');
  });

  it('search.messages needs a user token; in:/from: modifiers; count/page paging', async () => {
    expect((await failure(bot.search.messages({ query: 'meeting' }))).data?.error).toBe(
      'not_allowed_token_type',
    );
    const all = await user.search.messages({ query: 'meeting' });
    expect(all.messages?.matches?.map((m) => m.channel?.id).sort()).toEqual([
      'C0GENERAL',
      'C0GENERAL',
      'C0SECRET',
      'C999',
    ]);
    for (const spelling of ['in:#general', 'in:general', 'in:<#C0GENERAL|general>', 'in:C0GENERAL'])
      expect((await user.search.messages({ query: `meeting ${spelling}` })).messages?.total).toBe(2);
    expect((await user.search.messages({ query: 'meeting in:##general' })).messages?.total).toBe(0);
    expect(
      (await user.search.messages({ query: `meeting from:<@${BOB}>` })).messages?.matches?.[0]?.channel?.name,
    ).toBe('random');
    const first = await user.search.messages({ query: 'meeting', count: 3 });
    expect(first.messages?.paging).toEqual({ count: 3, total: 4, page: 1, pages: 2 });
    const second = await user.search.messages({ query: 'meeting', count: 3, page: 2 });
    expect(second.messages?.matches).toHaveLength(1);
    expect(second.messages?.matches?.[0]?.permalink).toMatch(/^https:\/\/fake-team\.slack\.com\/archives\//);
  });

  it('chat.getPermalink answers message and thread-reply permalinks', async () => {
    const parent = await bot.chat.getPermalink({ channel: 'C111', message_ts: THREAD_TS });
    expect(parent.permalink).toBe('https://fake-team.slack.com/archives/C111/p1700000000000100');
    const replyTs = slack.state.channel('C111').messages[0]?.replies[0]?.ts ?? '';
    expect((await bot.chat.getPermalink({ channel: 'C111', message_ts: replyTs })).permalink).toContain(
      `?thread_ts=${THREAD_TS}&cid=C111`,
    );
    expect(
      (await failure(bot.chat.getPermalink({ channel: 'C111', message_ts: '1.000001' }))).data?.error,
    ).toBe('message_not_found');
  });

  it('rate limits: the 2025 non-Marketplace limit (1 history a minute, 15 messages), tiers and one-off throttles', async () => {
    const strict = client(BOT_TOKEN, true);
    slack.nonMarketplaceApp();
    try {
      const page = await strict.conversations.history({ channel: 'C0BULK', limit: 100 });
      expect(page.messages).toHaveLength(15);
      const limited = await failure(strict.conversations.history({ channel: 'C0BULK' }));
      expect(limited).toMatchObject({ code: 'slack_webapi_rate_limited_error', retryAfter: 60 });
      const reply = slack.api.requests.at(-1)?.reply;
      expect(reply?.status).toBe(429);
      expect(reply?.body).toEqual({ ok: false, error: 'ratelimited' });
      slack.advance(30_000);
      expect((await failure(strict.conversations.history({ channel: 'C0BULK' }))).retryAfter).toBe(30);
      slack.advance(30_000);
      expect((await strict.conversations.history({ channel: 'C0BULK' })).messages).toHaveLength(15);
    } finally {
      slack.resetFaults();
    }
    expect((await failure(bot.conversations.history({ channel: 'C0SCOPE' }))).data?.error).toBe(
      'missing_scope',
    );
    slack.enforceTiers();
    for (let i = 0; i < 20; i++) await strict.conversations.list({ limit: 1 });
    expect((await failure(strict.conversations.list({ limit: 1 }))).retryAfter).toBeGreaterThan(0);
    slack.resetFaults();
    slack.throttle({ method: 'users.info', retryAfter: 600 });
    expect((await failure(strict.users.info({ user: ALICE }))).retryAfter).toBe(600);
    expect((await strict.users.info({ user: ALICE })).ok).toBe(true);
    slack.slow('users.info', 300);
    const started = Date.now();
    await strict.users.info({ user: ALICE });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    slack.resetFaults();
  });

  it('serves huge pages (byte bounds), GET with a query string, JSON bodies and unknown_method', async () => {
    const huge = await bot.conversations.history({ channel: 'C0HUGE' });
    expect(huge.messages).toHaveLength(60);
    expect(JSON.stringify(huge).length).toBeGreaterThan(60 * HUGE_MESSAGE_BYTES);
    const get = await fetch(`${slack.apiUrl}users.info?user=${ALICE}`, {
      headers: { authorization: `Bearer ${BOT_TOKEN}` },
    });
    expect(((await get.json()) as { user: { id: string } }).user.id).toBe(ALICE);
    const json = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BOT_TOKEN}`, 'content-type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ channel: 'C0TEST', text: 'json', unfurl_links: false }),
    });
    expect(((await json.json()) as { ok: boolean }).ok).toBe(true);
    expect(slack.calls('chat.postMessage').at(-1)?.unfurl_links).toBe(false);
    const bare = await fetch(`${slack.apiUrl}auth.test`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BOT_TOKEN}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await bare.json()).toMatchObject({ ok: true, warning: 'missing_charset' });
    const unknown = await fetch(`${slack.apiUrl}nope.nothing`, {
      method: 'POST',
      headers: { authorization: `Bearer ${BOT_TOKEN}` },
    });
    expect(await unknown.json()).toEqual({ ok: false, error: 'unknown_method' });
  });
});

describe('files.info and url_private_download', () => {
  it('files.info answers a file shared in a conversation of the caller, and the download needs the token', async () => {
    const message = slack.state.addMessage('C111', 'the plan');
    const file = slack.state.addFile('C111', message, {
      name: 'plan.txt',
      mimetype: 'text/plain',
      filetype: 'text',
      content: Buffer.from('step one'),
    });
    const info = await bot.files.info({ file: file.id });
    expect(info.file).toMatchObject({ id: file.id, name: 'plan.txt', size: 8, channels: ['C111'] });
    const url = info.file?.url_private_download ?? '';
    expect(url.startsWith(slack.state.filesOrigin)).toBe(true);
    const denied = await fetch(url, { redirect: 'manual' });
    expect(denied.status).toBe(302);
    const got = await fetch(url, { headers: { authorization: `Bearer ${BOT_TOKEN}` } });
    expect(await got.text()).toBe('step one');
    await expect(bot.files.info({ file: 'F999999' })).rejects.toThrow(/file_not_found/);
  });
});

describe('fake Slack against @slack/web-api response types', () => {
  it('serves only methods of the client, all described (undescribedRoutes empty)', () => {
    const methods = new Set(slackClientMethods());
    const served = [...new Set(slack.routes.map(([, t]) => t.slice(1)))];
    expect(served).toHaveLength(21);
    for (const m of served) expect(methods.has(m)).toBe(true);
    expect(undescribedRoutes(slack.routes, slackSpec())).toEqual([]);
    expect(slackSpec().hasOperation('POST', '/api/chat.postMessage')).toBe(true);
    expect(slackSpec().hasOperation('POST', '/api/chat.nope')).toBe(false);
    expect(slackSpec().declaredStatuses('GET', '/users.info')).toEqual(['200']);
  });

  it('the committed schemas are those of the installed @slack/web-api and generator (else regenerate)', () => {
    const list = JSON.parse(readFileSync(join(SLACK_SPECS, 'methods.json'), 'utf8'));
    const version = (name: string) =>
      JSON.parse(readFileSync(join(import.meta.dirname, '..', 'node_modules', name, 'package.json'), 'utf8'))
        .version;
    expect(list.package).toBe(`@slack/web-api@${version('@slack/web-api')}`);
    expect(list.generator).toBe(`ts-json-schema-generator@${version('ts-json-schema-generator')}`);
  });

  it('the committed schemas are closed: every object lists its properties, extra fields refused', () => {
    const schema = JSON.parse(readFileSync(join(SLACK_SPECS, 'conversations.history.json'), 'utf8'));
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(['ok']);
    expect(schema.definitions.MessageElement.additionalProperties).toBe(false);
  });

  it('every reply of this file validates (ok:false bodies and 429s included)', () => {
    const traffic = recording.read().filter((x) => x.vendor === 'slack');
    const report = checkTraffic(traffic, { slack: slackSpec() });
    expect(report.problems).toEqual([]);
    expect(report.validated).toBeGreaterThan(80);
    expect(traffic.some((x) => x.status === 429)).toBe(true);
    expect(traffic.some((x) => (x.body as { ok?: boolean })?.ok === false && x.status === 200)).toBe(true);
  }, 60_000);

  it('the check fails on a body with a field real Slack does not send', () => {
    const spec = slackSpec();
    expect(
      validateReply(spec, 'POST', '/auth.test', 200, { ok: true, user_id: 'U1', is_admin: true }),
    ).toEqual(['/: must NOT have additional properties']);
    const message = { type: 'message', ts: '1.000100', text: 'x', sentiment: 'happy' };
    const report = checkTraffic(
      [
        {
          vendor: 'slack',
          method: 'POST',
          route: '/conversations.history',
          target: '/conversations.history',
          status: 200,
          headers: {},
          body: { ok: true, messages: [message], has_more: false },
        },
        {
          vendor: 'slack',
          method: 'POST',
          route: '/conversations.history',
          target: '/conversations.history',
          status: 429,
          headers: {},
          body: { ok: false, error: 'ratelimited', retry: 1 },
        },
      ],
      { slack: spec },
    );
    expect(report.problems).toHaveLength(2);
    expect(report.problems[0]).toMatch(/\/messages\/0.*additional properties/);
  });
});
