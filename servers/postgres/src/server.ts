/**
 * The PostgreSQL server: its tools, resources, completions and prompt, as one ServerSpec for the
 * shared bootstrap.
 */
import type { ServerSpec } from '@refmcp/shared/server';
import pkg from '../package.json' with { type: 'json' };
import { type Config, configure, OPTIONS, OPTIONS_HELP } from './config.js';
import { registerPrompts } from './prompts.js';
import { registerResources } from './resources.js';
import { describeTarget } from './target.js';
import { insightTools } from './tools/insight.js';
import { queryTools } from './tools/query.js';
import { schemaTools } from './tools/schema.js';
import { TOOLSETS } from './toolsets.js';

export const postgresServer: ServerSpec<Config> = {
  name: 'postgres',
  title: 'PostgreSQL',
  version: pkg.version,
  usage: 'mcp-server-postgres [options] [postgresql://user:password@host:port/database]',
  optionsHelp: OPTIONS_HELP,
  options: OPTIONS,
  allowPositionals: true,
  capabilities: { resources: { listChanged: false }, completions: {} },
  configure,
  toolsets: TOOLSETS,
  tools: (config) => [...queryTools(config), ...schemaTools(config), ...insightTools(config)],
  offTools: (config): Record<string, string> =>
    config.writes
      ? {}
      : {
          execute: config.writesBeatenByReadOnly
            ? '--tools execute and --read-only contradict: --read-only hides every tool that can change something, --allow-writes or not; drop --read-only, or leave execute out'
            : 'start the server with --allow-writes (and without --read-only)',
        },
  instructions: (config) =>
    `PostgreSQL database "${config.target.database}" at ${describeTarget(config.target)}. ` +
    (config.writes
      ? 'Reads (query) run in READ ONLY transactions; writes go through execute, one statement per call, committed. '
      : 'Read-only: every statement runs in a READ ONLY transaction, so PostgreSQL refuses writes. ') +
    'Before writing SQL, use list_tables and describe_table. Results are paged: follow nextCursor. ' +
    'Pass values as params ($1, $2, …).',
  register: (server, config, context) => {
    registerResources(server, config, context);
    registerPrompts(server, config, context);
  },
  secrets: (config) => config.secrets,
  close: (config) => config.db.close(),
};
