/**
 * The author check before slack_update_message and slack_delete_message: the message must be this
 * token's own. Slack refuses another author's message to a bot token, but a user token may delete
 * whatever its user may delete in Slack (chat.delete: "may only delete messages that user
 * themselves can delete in Slack"), which for a workspace admin is any message — so the server
 * checks first and never relies on Slack's refusal.
 *
 * Who the token is comes from auth.test (`user_id`, and `bot_id` for a bot token); the message from
 * conversations.history (`oldest` = `latest` = ts, `inclusive`) or, for a reply, conversations.replies
 * of its thread. The message is the token's when its `user` is the token's `user_id` or its
 * `bot_id` the token's `bot_id`.
 */
import { ToolError } from '@refmcp/shared';
import type { Config } from '../config.js';

interface RawMessage {
  ts?: unknown;
  user?: unknown;
  bot_id?: unknown;
}

/**
 * Resolves when message `ts` in `channel` (in thread `threadTs` when given) was posted by this
 * token. Errors: ToolError when it cannot be found or has another author (nothing is changed);
 * SlackApiError of auth.test, conversations.history or conversations.replies.
 */
export async function requireOwnMessage(
  config: Config,
  channel: string,
  ts: string,
  threadTs: string | undefined,
  action: 'edit' | 'delete',
  signal?: AbortSignal,
): Promise<void> {
  const self = await config.directory.identity();
  const window = { oldest: ts, latest: ts, inclusive: true };
  const reply = threadTs !== undefined && threadTs !== ts;
  const answer = reply
    ? await config.slack.call(
        'conversations.replies',
        { channel, ts: threadTs, ...window, limit: 2 },
        { signal },
      )
    : await config.slack.call('conversations.history', { channel, ...window, limit: 1 }, { signal });
  const messages = Array.isArray(answer.messages) ? (answer.messages as RawMessage[]) : [];
  const message = messages.find((m) => m.ts === ts);
  if (!message)
    throw new ToolError(
      `No message ${ts} in ${channel}${reply ? ` thread ${threadTs}` : ''}; nothing was changed.${reply ? '' : ' A reply in a thread needs thread_ts (its parent).'}`,
    );
  const mine =
    (self.userId !== undefined && message.user === self.userId) ||
    (self.botId !== undefined && message.bot_id === self.botId);
  if (!mine)
    throw new ToolError(
      `Message ${ts} was not posted by this app (its author is ${typeof message.user === 'string' ? message.user : typeof message.bot_id === 'string' ? `bot ${message.bot_id}` : 'unknown'}); only its own messages may be ${action === 'edit' ? 'edited' : 'deleted'}. Nothing was changed.`,
    );
}
