// chat.scheduleMessage, chat.scheduledMessages.list and chat.deleteScheduledMessage of the fake
// Slack: messages scheduled by the caller in a conversation it has joined, at most 120 days ahead
// and never in the past (`time_in_past`, `time_too_far`), listed and cancelled by the caller only.
import { cursorPage } from '../../fake-api/index.js';
import type { FakeSlack } from './fake-slack.js';
import { bool, fail, int, need, requireScopes, slackError, str } from './http.js';
import { MAX_MARKDOWN_CHARS, MAX_MESSAGE_CHARS } from './routes-chat.js';
import { joinedChannel } from './routes-conversations.js';

/** Slack schedules at most 120 days ahead (chat.scheduleMessage: `time_too_far`). */
export const MAX_SCHEDULE_SECONDS = 120 * 24 * 3600;

export function registerScheduledRoutes(slack: FakeSlack): void {
  const { state } = slack;
  let serial = 1;

  slack.method(
    'chat.scheduleMessage',
    (_req, args, who) => {
      requireScopes(who, ['chat:write']);
      const c = joinedChannel(slack, need(args, 'channel', 'channel_not_found'), who);
      if (c.archived) fail('is_archived');
      const postAt = Number(need(args, 'post_at', 'invalid_time'));
      if (!Number.isInteger(postAt)) fail('invalid_time');
      const now = Math.floor(Date.now() / 1000);
      if (postAt <= now) fail('time_in_past');
      if (postAt > now + MAX_SCHEDULE_SECONDS) fail('time_too_far');
      const markdown = str(args, 'markdown_text');
      if (markdown && (str(args, 'text') || str(args, 'blocks'))) fail('markdown_text_conflict');
      const text = markdown ?? str(args, 'text');
      if (!text) fail('no_text');
      if (text.length > (markdown ? MAX_MARKDOWN_CHARS : MAX_MESSAGE_CHARS)) fail('msg_too_long');
      const threadTs = str(args, 'thread_ts');
      const id = `Q${String(serial++).padStart(8, '0')}`;
      state.scheduled.push({
        id,
        channel: c.id,
        user: who.user.id,
        postAt,
        dateCreated: now,
        text,
        ...(threadTs ? { threadTs } : {}),
        unfurlLinks: bool(args, 'unfurl_links', true),
      });
      const botId = who.record.kind === 'bot' ? who.user.botId : undefined;
      return {
        body: {
          ok: true,
          channel: c.id,
          scheduled_message_id: id,
          post_at: postAt,
          message: {
            type: 'message',
            text,
            user: who.user.id,
            team: state.team.id,
            ...(botId ? { bot_id: botId, app_id: state.appId } : {}),
          },
        },
      };
    },
    ['chat:write'],
  );

  slack.method(
    'chat.scheduledMessages.list',
    (_req, args, who) => {
      const channel = str(args, 'channel');
      const mine = state.scheduled.filter(
        (m) => m.user === who.user.id && (!channel || m.channel === channel),
      );
      const page = cursorPage(mine, {
        cursor: str(args, 'cursor'),
        limit: int(args, 'limit') ?? 100,
        defaultLimit: 100,
        invalid: () => slackError('invalid_cursor'),
      });
      return {
        body: {
          ok: true,
          scheduled_messages: page.items.map((m) => ({
            id: m.id,
            channel_id: m.channel,
            post_at: m.postAt,
            date_created: m.dateCreated,
            text: m.text,
          })),
          response_metadata: { next_cursor: page.next ?? '' },
        },
      };
    },
    [],
  );

  slack.method(
    'chat.deleteScheduledMessage',
    (_req, args, who) => {
      requireScopes(who, ['chat:write']);
      const channel = need(args, 'channel', 'channel_not_found');
      const id = need(args, 'scheduled_message_id', 'invalid_scheduled_message_id');
      const i = state.scheduled.findIndex(
        (m) => m.id === id && m.channel === channel && m.user === who.user.id,
      );
      if (i < 0) fail('invalid_scheduled_message_id');
      state.scheduled.splice(i, 1);
      return { body: { ok: true } };
    },
    ['chat:write'],
  );
}
