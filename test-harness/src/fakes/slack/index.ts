// A fake Slack Web API for the Slack server's tests, demo and bench: an in-memory workspace
// (users with profiles, bot and user tokens with scopes, public and private channels, DMs,
// messages with threads and reactions) served on 127.0.0.1 by the harness's fake-API toolkit under
// /api. Every method is one @slack/web-api knows and every reply body validates against the
// closed schema generated from the client's own response types (./spec.ts). This file only re-exports.
export {
  FakeSlack,
  METHOD_TIERS,
  NON_MARKETPLACE_LIMIT,
  ratelimited,
  SLACK_TIERS,
  type SlackHandler,
  type StagedError,
  type StagedReply,
} from './fake-slack.js';
export { type SlackArgs, type SlackCaller, slackArgs, slackError } from './http.js';
export { MAX_MESSAGE_CHARS } from './routes-chat.js';
export { parseSearch, type SearchQuery } from './routes-search.js';
export * from './seed.js';
export { startFakeSlack } from './start.js';
export {
  BOT_SCOPES,
  type ChannelRecord,
  type ConversationKind,
  type MessageRecord,
  SlackState,
  slackTs,
  type TokenRecord,
  USER_SCOPES,
  type UserRecord,
} from './state.js';
