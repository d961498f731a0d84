/**
 * Slack's error codes explained for the model (docs.slack.dev/reference/methods, each method's
 * "Errors" table): what went wrong and what to do next, so that an `ok:false` answer is never passed
 * on as a bare code — or, as the reference server did, as a success holding raw JSON (case SL-07,
 * SL-09). Codes not listed keep Slack's code with a pointer to the method's docs.
 */

/** Meanings of the codes the server's methods answer with. `{needed}` is filled from the answer. */
const MEANINGS: Readonly<Record<string, string>> = {
  not_in_channel:
    'the app is not a member of this channel. Invite it first (in Slack: /invite @<app name> in the channel), or use a channel it is in',
  channel_not_found:
    'no such channel, or the token cannot see it (a private channel or DM is visible only when the app is a member)',
  missing_scope:
    "the token lacks the OAuth scope {needed}. Add it under the app's OAuth & Permissions and reinstall the app",
  not_authed: 'no token was sent: set SLACK_BOT_TOKEN',
  invalid_auth: 'the token is invalid (mistyped, or for another workspace)',
  token_revoked: 'the token was revoked: reinstall the app and set the new token',
  token_expired: 'the token expired: rotate it and set the new one',
  account_inactive: "the token's user or app was deactivated",
  no_permission: 'the token may not do this (a workspace admin setting or a missing scope)',
  not_allowed_token_type:
    'this method needs another kind of token (message search needs a user token, SLACK_USER_TOKEN)',
  thread_not_found:
    'no thread starts at that ts in this channel (check thread_ts: it is the parent message ts)',
  message_not_found: 'no message with that ts in this channel',
  cant_update_message: "only messages this app (or the token's user) posted can be edited",
  cant_delete_message: "only messages this app (or the token's user) posted can be deleted",
  no_reaction: 'this app has no such reaction on the message (nothing changed)',
  edit_window_closed: "the workspace's time limit for editing this message has passed",
  users_not_found: 'no user has that email address',
  already_reacted: 'that reaction is already on the message from this app (nothing changed)',
  too_many_reactions: 'the message has the most reactions Slack allows',
  invalid_name: 'that emoji name does not exist in this workspace',
  is_archived: 'the channel is archived: nothing can be posted there',
  msg_too_long: 'the message is too long (Slack truncates or refuses text past 40,000 characters)',
  no_text: 'the message has no text',
  restricted_action: 'a workspace setting forbids this app from posting in this channel',
  restricted_action_read_only_channel: 'the channel is read-only for this app',
  restricted_action_thread_only_channel: 'this channel accepts only thread replies',
  cannot_reply_to_message: 'this message cannot be replied to',
  user_not_found: 'no user with that ID in this workspace',
  user_not_visible: 'the token may not see that user',
  invalid_cursor: 'the cursor is stale or from another query: start again without cursor',
  invalid_ts_latest: 'latest is not a valid timestamp',
  invalid_ts_oldest: 'oldest is not a valid timestamp',
  invalid_limit: 'limit is out of range for this method',
  page_out_of_range: 'no such page of results: start again without cursor',
  team_access_not_granted: 'the token has no access to that workspace (Enterprise Grid: set SLACK_TEAM_ID)',
  missing_argument: 'a required argument is missing',
  invalid_arguments: 'Slack refused the arguments',
  ratelimited: 'rate limited: too many requests to this method',
  request_timeout: 'Slack timed out answering: try again',
  service_unavailable: 'Slack is unavailable: try again later',
  fatal_error: 'Slack failed internally: try again later',
  internal_error: 'Slack failed internally: try again later',
  unknown_method: 'the Web API has no such method (check SLACK_API_URL)',
  ekm_access_denied: 'the workspace keys deny access to this content (Enterprise Key Management)',
  access_denied: 'access to this content is denied',
  invalid_response:
    'the answer was not a Web API answer (not JSON, cut short, or an error page): check SLACK_API_URL, or try again',
  unknown_error: 'Slack refused the call without saying why',
};

/**
 * "`not_in_channel`: the app is not a member …" — the code, its meaning and, for `missing_scope`,
 * the scope named by the answer's `needed`.
 */
export function explainSlackError(code: string, needed?: string): string {
  const meaning = MEANINGS[code];
  if (!meaning) return `${code} (see the method's "Errors" table at docs.slack.dev/reference/methods)`;
  return `${code}: ${meaning.replace('{needed}', needed ? `"${needed}"` : '(Slack did not say which)')}`;
}
