// chat.postMessage, chat.update, chat.delete, chat.getPermalink, reactions.add and reactions.remove
// of the fake Slack (edits of the caller's own messages only; deletes also of others' by an admin's user token): posting only where the
// caller is a member (`not_in_channel`), threads (`thread_ts`, `reply_broadcast`), what was asked
// of unfurling recorded on the message, permalinks, and reactions with Slack's refusals.
import type { FakeSlack } from './fake-slack.js';
import { bool, fail, need, requireScopes, str } from './http.js';
import { messageObject, permalink } from './objects.js';
import { joinedChannel, visibleChannel } from './routes-conversations.js';
import type { MessageRecord } from './state.js';

/** Slack refuses message text longer than this (`msg_too_long`). */
export const MAX_MESSAGE_CHARS = 40_000;
/** Slack takes at most this many characters of `markdown_text`. */
export const MAX_MARKDOWN_CHARS = 12_000;

export function registerChatRoutes(slack: FakeSlack): void {
  const { state } = slack;

  slack.method(
    'chat.postMessage',
    (_req, args, who) => {
      requireScopes(who, ['chat:write']);
      // chat.postMessage alone also takes a channel name ("#random" or "random"), as Slack documents.
      const asked = need(args, 'channel', 'channel_not_found');
      const c = visibleChannel(slack, state.channelByName(asked)?.id ?? asked, who);
      if (!c.members.has(who.user.id)) fail('not_in_channel');
      if (c.archived) fail('is_archived');
      const markdown = str(args, 'markdown_text');
      // markdown_text "should not be used in conjunction with blocks or text" (chat.postMessage).
      if (markdown && (str(args, 'text') || str(args, 'blocks'))) fail('markdown_text_conflict');
      if (markdown && markdown.length > MAX_MARKDOWN_CHARS) fail('msg_too_long');
      const text = markdown ?? str(args, 'text');
      if (!text && !str(args, 'blocks') && !str(args, 'attachments')) fail('no_text');
      if (text && text.length > MAX_MESSAGE_CHARS) fail('msg_too_long');
      const threadTs = str(args, 'thread_ts');
      const parent = threadTs ? c.messages.find((m) => m.ts === threadTs) : undefined;
      let message: MessageRecord;
      if (parent)
        message = state.addReply(c.id, parent.ts, text ?? '', {
          user: who.user.id,
          broadcast: bool(args, 'reply_broadcast', false),
        });
      else message = state.addMessage(c.id, text ?? '', { user: who.user.id });
      if (markdown) message.markdown = true;
      message.unfurlLinks = bool(args, 'unfurl_links', true);
      message.unfurlMedia = bool(args, 'unfurl_media', true);
      return {
        body: {
          ok: true,
          channel: c.id,
          ts: message.ts,
          message: messageObject(message, state, { parent }),
        },
      };
    },
    ['chat:write'],
  );

  slack.method(
    'chat.update',
    (_req, args, who) => {
      requireScopes(who, ['chat:write']);
      const c = joinedChannel(slack, need(args, 'channel', 'channel_not_found'), who);
      const m = state.findMessage(c, need(args, 'ts', 'message_not_found'));
      if (!m) fail('message_not_found');
      // Only the token's own messages can be edited (bot tokens: the bot's).
      if (m.user !== who.user.id) fail('cant_update_message');
      const markdown = str(args, 'markdown_text');
      if (markdown && (str(args, 'text') || str(args, 'blocks'))) fail('markdown_text_conflict');
      const text = markdown ?? str(args, 'text');
      if (!text) fail('no_text');
      if (text.length > (markdown ? MAX_MARKDOWN_CHARS : MAX_MESSAGE_CHARS)) fail('msg_too_long');
      m.text = text;
      m.markdown = Boolean(markdown);
      m.edited = true;
      return {
        body: {
          ok: true,
          channel: c.id,
          ts: m.ts,
          text: m.text,
          message: { type: 'message', user: m.user, text: m.text, team: state.team.id },
        },
      };
    },
    ['chat:write'],
  );

  slack.method(
    'chat.delete',
    (_req, args, who) => {
      requireScopes(who, ['chat:write']);
      const c = joinedChannel(slack, need(args, 'channel', 'channel_not_found'), who);
      const ts = need(args, 'ts', 'message_not_found');
      const m = state.findMessage(c, ts);
      if (!m) fail('message_not_found');
      // A user token deletes what its user may delete in Slack: a workspace admin, anyone's message
      // (chat.delete: "may only delete messages that user themselves can delete in Slack").
      const admin = who.record.kind === 'user' && who.user.isAdmin;
      if (m.user !== who.user.id && !admin) fail('cant_delete_message');
      state.removeMessage(c, ts);
      return { body: { ok: true, channel: c.id, ts } };
    },
    ['chat:write'],
  );

  slack.method('chat.getPermalink', (_req, args, who) => {
    const c = visibleChannel(slack, need(args, 'channel', 'channel_not_found'), who);
    const m = state.findMessage(c, need(args, 'message_ts', 'message_not_found'));
    if (!m) fail('message_not_found');
    return { body: { ok: true, channel: c.id, permalink: permalink(state, c, m) } };
  });

  slack.method(
    'reactions.add',
    (_req, args, who) => {
      requireScopes(who, ['reactions:write']);
      const c = joinedChannel(slack, need(args, 'channel', 'channel_not_found'), who);
      const m = state.findMessage(c, need(args, 'timestamp', 'no_item_specified'));
      if (!m) fail('message_not_found');
      const name = need(args, 'name', 'invalid_name');
      if (!/^[a-z0-9_+'-]+$/.test(name)) fail('invalid_name');
      const users = m.reactions.get(name) ?? [];
      if (users.includes(who.user.id)) fail('already_reacted');
      m.reactions.set(name, [...users, who.user.id]);
      return { body: { ok: true } };
    },
    ['reactions:write'],
  );

  slack.method(
    'reactions.remove',
    (_req, args, who) => {
      requireScopes(who, ['reactions:write']);
      const c = joinedChannel(slack, need(args, 'channel', 'channel_not_found'), who);
      const m = state.findMessage(c, need(args, 'timestamp', 'no_item_specified'));
      if (!m) fail('message_not_found');
      const name = need(args, 'name', 'invalid_name');
      const users = m.reactions.get(name) ?? [];
      if (!users.includes(who.user.id)) fail('no_reaction');
      const left = users.filter((u) => u !== who.user.id);
      if (left.length) m.reactions.set(name, left);
      else m.reactions.delete(name);
      return { body: { ok: true } };
    },
    ['reactions:write'],
  );
}
