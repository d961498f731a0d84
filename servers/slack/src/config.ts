/**
 * Startup configuration from the environment and flags (the reference server's variable names
 * kept). Bad input is a ConfigError (exit 2, one stderr line). Tokens are read once, never printed.
 *
 * Environment: SLACK_BOT_TOKEN (xoxb-…), SLACK_USER_TOKEN (xoxp-…; message search needs one),
 * SLACK_TEAM_ID (optional, Enterprise Grid), SLACK_API_URL (default https://slack.com/api/),
 * SLACK_CHANNEL_IDS (every tool limited to these), SLACK_POST_TO (as --post-to).
 */
import {
  ConfigError,
  type ConfigInput,
  DEFAULT_MAX_RESPONSE_BYTES,
  HTTP_OPTIONS,
  httpOptionsHelp,
  httpPolicyFromFlags,
  parseBaseUrl,
  readToken,
  splitList,
  userAgent,
} from '@refmcp/shared';
import pkg from '../package.json' with { type: 'json' };
import { Directory } from './directory.js';
import { People } from './people.js';
import { ChannelScope, PostScope } from './scope.js';
import { SlackClient } from './slack/client.js';

export interface Config {
  /** The client of every call but search: the bot token, or the user token when it is the only one. */
  slack: SlackClient;
  /** The user-token client (SLACK_USER_TOKEN): message search. */
  search?: SlackClient;
  apiUrl: URL;
  tokens: string[];
  /** SLACK_CHANNEL_IDS: undefined means every channel the token can see. */
  channels?: ChannelScope;
  /** --post-to: undefined means posting is off. */
  postTo?: PostScope;
  /** --unfurl-domains: hosts whose links Slack may unfurl (only when every link is on it). */
  unfurlDomains: string[];
  /** --allow-broadcast: posts may carry <!channel>, <!here>, <!everyone> and user-group mentions. */
  allowBroadcast: boolean;
  directory: Directory;
  /** People by name or email, and DMs by person. */
  people: People;
  readOnly: boolean;
}

export const OPTIONS = {
  'post-to': { type: 'string' },
  'unfurl-domains': { type: 'string' },
  'allow-broadcast': { type: 'boolean' },
  ...HTTP_OPTIONS,
} as const;

export const OPTIONS_HELP = `Environment:
  SLACK_BOT_TOKEN       bot token (xoxb-…)
  SLACK_USER_TOKEN      user token (xoxp-…); enables slack_search_messages
  SLACK_TEAM_ID         workspace ID (optional; Enterprise Grid org tokens)
  SLACK_API_URL         Web API base (default https://slack.com/api/; GovSlack https://slack-gov.com/api/)
  SLACK_CHANNEL_IDS     C1,C2: every tool, reading and writing, is limited to these channels
  SLACK_POST_TO         as --post-to

Options:
  --post-to C1,C2|all      turn on posting, replies and reactions in these channels (default: off)
  --unfurl-domains a.com   let Slack unfurl links when every link in a message is on these domains
                           (default: unfurling always off)
  --allow-broadcast        let posts notify a whole channel or group (<!channel>, <!here>,
                           <!everyone>, <!subteam^…>); refused by default
${httpOptionsHelp({ service: 'Slack', writeNote: 'about one message a second per channel', searchNote: 'search.messages is tier 2' })}`;

/** The token variables: the bot token first (the reference's), then the user token. */
export const TOKEN_VARIABLES = ['SLACK_BOT_TOKEN', 'SLACK_USER_TOKEN'] as const;

export function configure({ values, env, common }: ConfigInput): Config {
  const botToken = readToken(env, ['SLACK_BOT_TOKEN']);
  const userToken = readToken(env, ['SLACK_USER_TOKEN']);
  const token = botToken ?? userToken;
  // Like the other API servers it starts without one (a host may start servers before they are
  // configured); every call then answers Slack's not_authed, explained.
  if (!token)
    process.stderr.write(
      '[refmcp-slack] warn: no SLACK_BOT_TOKEN or SLACK_USER_TOKEN: every call will fail\n',
    );
  const apiUrl = parseBaseUrl(env.SLACK_API_URL || 'https://slack.com/api/', 'SLACK_API_URL');
  if (!apiUrl.pathname.endsWith('/')) apiUrl.pathname += '/';
  const teamId = env.SLACK_TEAM_ID?.trim() || undefined;
  if (teamId && !/^[TE][A-Z0-9]{2,}$/.test(teamId))
    throw new ConfigError('SLACK_TEAM_ID: must be a workspace ID such as T0123ABCD');
  const policy = httpPolicyFromFlags(values);
  const channels = env.SLACK_CHANNEL_IDS?.trim() ? ChannelScope.parse(env.SLACK_CHANNEL_IDS) : undefined;
  const postValue = typeof values['post-to'] === 'string' ? values['post-to'] : env.SLACK_POST_TO?.trim();
  const postSource = typeof values['post-to'] === 'string' ? '--post-to' : 'SLACK_POST_TO';
  const postTo = postValue ? PostScope.parse(postValue, postSource) : undefined;
  const unreachable = channels && postTo ? postTo.idsOutside(channels) : [];
  if (unreachable.length)
    process.stderr.write(
      `[refmcp-slack] warn: ${postSource} names ${unreachable.join(',')}, outside SLACK_CHANNEL_IDS: posts there will be refused\n`,
    );
  const unfurlDomains = (splitList(values['unfurl-domains']) ?? []).map((d) =>
    d.toLowerCase().replace(/^\*\./, ''),
  );
  const bad = unfurlDomains.find((d) => !/^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z][a-z0-9-]*$/.test(d));
  if (bad) throw new ConfigError(`--unfurl-domains: "${bad}" is not a domain name`);
  const log = (line: string) => process.stderr.write(`[refmcp-slack] ${line}\n`);
  const client = (t: string | undefined) =>
    new SlackClient({
      apiUrl,
      ...(t ? { token: t } : {}),
      ...(teamId ? { teamId } : {}),
      userAgent: userAgent('slack', pkg.version),
      policy,
      maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES,
      log,
    });
  const slack = client(token);
  const directory = new Directory(slack, channels?.ids);
  return {
    slack,
    ...(userToken ? { search: token === userToken ? slack : client(userToken) } : {}),
    apiUrl,
    tokens: [botToken, userToken].filter((t): t is string => t !== undefined),
    ...(channels ? { channels } : {}),
    ...(postTo ? { postTo } : {}),
    unfurlDomains,
    allowBroadcast: values['allow-broadcast'] === true,
    directory,
    people: new People(slack, directory),
    readOnly: common.readOnly,
  };
}
