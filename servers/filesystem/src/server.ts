/**
 * The filesystem server: its tools, resources and the client-roots handshake, as one ServerSpec
 * for the shared bootstrap.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { displayPath, hasRawBytes } from '@refmcp/shared/paths';
import {
  type ServerSpec,
  type ToolContext,
  type ToolDefinition,
  ToolError,
  type ToolResult,
  untilCancelled,
} from '@refmcp/shared/server';
import pkg from '../package.json' with { type: 'json' };
import { type Config, configure, OPTIONS, OPTIONS_HELP } from './config.js';
import { processResourceListen, registerResources } from './resources.js';
import { registerRoots } from './roots.js';
import { documentTools } from './tools/document.js';
import { listTools } from './tools/list.js';
import { readTools } from './tools/read.js';
import { searchTools } from './tools/search.js';
import { writeTools } from './tools/write.js';

const allTools = (config: Config) =>
  [
    ...readTools(config),
    ...documentTools(config),
    ...listTools(config),
    ...searchTools(config),
    ...writeTools(config),
  ].map(showingRawBytes);

/**
 * Each connection's own config (its own Workspace, narrowed by its client's roots only) and, once its
 * roots were asked for, its own tools bound to it. Connections whose client offers no roots (and every
 * 2026-07-28 request) run the process's tools on the operator's directories, built once.
 */
interface Connection {
  config: Config;
  handlers?: Map<string, ToolDefinition['handler']>;
}
const connections = new WeakMap<McpServer, Connection>();

/** Runs tool `tool` for the calling connection: on its client's roots when it has any, else the operator's. */
function perConnection(tool: ToolDefinition): ToolDefinition {
  return {
    ...tool,
    handler: async (args, context: ToolContext) => {
      const connection = connections.get(context.server);
      if (!connection?.config.workspace.narrowedByClient) return tool.handler(args, context);
      // The client's roots are awaited until they arrive or the client cancels the call: then the
      // call is released at once and never runs.
      if (!(await untilCancelled(context.signal, () => connection.config.workspace.settled())))
        throw new ToolError('cancelled by the client');
      connection.handlers ??= new Map(allTools(connection.config).map((t) => [t.name, t.handler]));
      const handler = connection.handlers.get(tool.name) ?? tool.handler;
      return handler(args, context);
    },
  };
}

export const filesystemServer: ServerSpec<Config> = {
  name: 'filesystem',
  title: 'Filesystem',
  version: pkg.version,
  usage: 'mcp-server-filesystem [options] DIR [DIR …]',
  optionsHelp: OPTIONS_HELP,
  options: OPTIONS,
  allowPositionals: true,
  // No resources/list_changed: that would mean watching every root recursively.
  capabilities: { resources: { subscribe: true, listChanged: false } },
  configure,
  tools: (config) => allTools(config).map(perConnection),
  instructions: (config) =>
    `Files under ${config.workspace.operator.roots.map((r) => r.configured).join(', ')}` +
    (config.readOnly ? ' (read-only).' : '.') +
    ' Relative paths resolve against the first allowed directory. Listings, trees and searches are paginated:' +
    ' pass nextCursor back as cursor. Use search_file_contents to find text, read_text_file with offset/limit to read parts of big files.',
  // A client's roots narrow its own connection's directories (never another's, never beyond the operator's).
  register: (server, config, context) => {
    const own: Config = { ...config, workspace: config.workspace.forConnection() };
    connections.set(server, { config: own });
    registerResources(server, own, context);
    registerRoots(server, own, context);
  },
  resourceListen: processResourceListen,
};

/**
 * `tool`, its results showing each raw byte of a name that is not valid UTF-8 as `\xHH` (the form
 * every path argument accepts back), wherever a path appears (trees, search hits, file info). Only
 * paths carry such bytes (U+DC80–U+DCFF; file text decodes invalid UTF-8 to U+FFFD), so a result
 * without one is returned as it is, after one scan.
 */
function showingRawBytes(tool: ToolDefinition): ToolDefinition {
  const handler = tool.handler;
  return {
    ...tool,
    handler: async (args, context) => {
      const result = await handler(args, context);
      return carriesRawBytes(result) ? (displayed(result) as ToolResult) : result;
    },
  };
}

function carriesRawBytes(value: unknown): boolean {
  if (typeof value === 'string') return hasRawBytes(value);
  if (Array.isArray(value)) return value.some(carriesRawBytes);
  if (value && typeof value === 'object') return Object.values(value).some(carriesRawBytes);
  return false;
}

function displayed(value: unknown): unknown {
  if (typeof value === 'string') return displayPath(value);
  if (Array.isArray(value)) return value.map(displayed);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, displayed(v)]));
  return value;
}
