/**
 * What a user fills in when installing each server's MCPB bundle (Claude Desktop's install
 * dialog), and where each value goes: an argument, the positional arguments, or an environment
 * variable. Derived by hand from each server.json's arguments and variables, keeping what a desktop
 * user needs to start it: directories and files, tokens (marked sensitive: the host keeps them in
 * the OS keychain) and API base URLs (defaulting to each server's own default, for self-hosted
 * or enterprise instances).
 */

export type UserConfigType = 'string' | 'number' | 'boolean' | 'directory' | 'file';

export interface UserConfigField {
  /** Key in the manifest's user_config (`${user_config.<key>}`). */
  key: string;
  type: UserConfigType;
  title: string;
  description: string;
  required?: boolean;
  sensitive?: boolean;
  multiple?: boolean;
  default?: string;
  /** Where the value goes when the host starts the server. */
  to: { env: string } | { arg: string } | { positional: true };
}

const token = (key: string, env: string, title: string, description: string): UserConfigField => ({
  key,
  type: 'string',
  title,
  description,
  required: true,
  sensitive: true,
  to: { env },
});

const url = (key: string, env: string, title: string, fallback: string): UserConfigField => ({
  key,
  type: 'string',
  title,
  description: `Base URL of the API (default ${fallback}); change it for a self-hosted or enterprise instance.`,
  required: false,
  default: fallback,
  to: { env },
});

/** The user_config fields of each server, by directory under servers/. */
export const USER_CONFIG: Record<string, UserConfigField[]> = {
  filesystem: [
    {
      key: 'allowed_directories',
      type: 'directory',
      title: 'Allowed directories',
      description: 'Directories the server may read and write (and nothing outside them).',
      required: true,
      multiple: true,
      to: { positional: true },
    },
  ],
  sqlite: [
    {
      key: 'db_path',
      type: 'file',
      title: 'Database file',
      description: 'The SQLite database file (opened read-only unless writes are allowed).',
      required: true,
      to: { arg: '--db-path' },
    },
  ],
  postgres: [
    token(
      'database_url',
      'DATABASE_URL',
      'Database URL',
      'postgresql://user:password@host:5432/database (use a read-only role).',
    ),
  ],
  github: [
    token(
      'github_token',
      'GITHUB_PERSONAL_ACCESS_TOKEN',
      'GitHub token',
      'A fine-grained personal access token.',
    ),
    url('github_api_url', 'GITHUB_API_URL', 'GitHub API URL', 'https://api.github.com'),
  ],
  gitlab: [
    token(
      'gitlab_token',
      'GITLAB_PERSONAL_ACCESS_TOKEN',
      'GitLab token',
      'A personal access token (read_api for read-only use).',
    ),
    url('gitlab_api_url', 'GITLAB_API_URL', 'GitLab API URL', 'https://gitlab.com/api/v4'),
  ],
  slack: [
    token(
      'slack_bot_token',
      'SLACK_BOT_TOKEN',
      'Slack bot token',
      'The bot token (xoxb-…) of your Slack app.',
    ),
    url('slack_api_url', 'SLACK_API_URL', 'Slack API URL', 'https://slack.com/api/'),
  ],
  search: [
    token(
      'brave_api_key',
      'BRAVE_API_KEY',
      'Brave Search API key',
      'The subscription token of your Brave Search API plan.',
    ),
    url('brave_api_url', 'BRAVE_API_URL', 'Brave Search API URL', 'https://api.search.brave.com/res/v1'),
  ],
  drive: [
    {
      key: 'oauth_keys',
      type: 'file',
      title: 'OAuth client keys',
      description: 'The OAuth client keys JSON downloaded from the Google Cloud console.',
      required: true,
      to: { env: 'GDRIVE_OAUTH_PATH' },
    },
    {
      key: 'credentials',
      type: 'file',
      title: 'Saved credentials',
      description: 'The token file `npx @refmcp/server-drive auth` saved (the server refreshes it).',
      required: true,
      to: { env: 'GDRIVE_CREDENTIALS_PATH' },
    },
    url('drive_api_url', 'GDRIVE_API_URL', 'Drive API URL', 'https://www.googleapis.com/'),
    url('token_url', 'GOOGLE_OAUTH_TOKEN_URL', 'OAuth token URL', 'https://oauth2.googleapis.com/token'),
  ],
  // Finds Chromium on the PATH; everything else is optional.
  browser: [],
};

/**
 * The arguments and environment `fields` produce for `values` (keys as in user_config; a
 * `multiple` field takes an array), as a host substitutes them. Throws for a missing required value.
 */
export function launchFor(
  fields: UserConfigField[],
  values: Record<string, string | string[]>,
): { args: string[]; env: Record<string, string> } {
  const args: string[] = [];
  const env: Record<string, string> = {};
  for (const f of fields) {
    const value = values[f.key] ?? f.default;
    if (value === undefined) {
      if (f.required) throw new Error(`user_config.${f.key} is required`);
      continue;
    }
    const list = Array.isArray(value) ? value : [value];
    if ('positional' in f.to) args.push(...list);
    else if ('arg' in f.to) args.push(f.to.arg, list.join(','));
    else env[f.to.env] = list.join(',');
  }
  return { args, env };
}
