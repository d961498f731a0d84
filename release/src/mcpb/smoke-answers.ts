import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What a user enters in the install dialog, per server: enough to start it with no service behind
 * (files it needs are written to `tmp`). Used to list a server's tools for its manifest and to
 * smoke-test the installed bundle.
 */
export function smokeAnswers(dir: string, tmp: string): Record<string, string | string[]> {
  switch (dir) {
    case 'filesystem':
      return { allowed_directories: [tmp] };
    case 'sqlite':
      writeFileSync(join(tmp, 'bundle.db'), ''); // an empty file is an empty SQLite database
      return { db_path: join(tmp, 'bundle.db') };
    case 'postgres': // connects on the first tool call
      return { database_url: 'postgresql://refmcp@127.0.0.1:1/none' };
    case 'github':
      return { github_token: 'github_pat_bundle_smoke_test' };
    case 'gitlab':
      return { gitlab_token: 'glpat-bundle-smoke-test' };
    case 'slack':
      return { slack_bot_token: 'xoxb-bundle-smoke-test' };
    case 'search':
      return { brave_api_key: 'bundle-smoke-test' };
    case 'drive':
      writeFileSync(
        join(tmp, 'keys.json'),
        JSON.stringify({ installed: { client_id: 'id', client_secret: 'secret' } }),
      );
      writeFileSync(
        join(tmp, 'token.json'),
        JSON.stringify({ access_token: 'ya29.bundle', expiry_date: Date.now() + 3_600_000 }),
      );
      return { oauth_keys: join(tmp, 'keys.json'), credentials: join(tmp, 'token.json') };
    default:
      return {};
  }
}
