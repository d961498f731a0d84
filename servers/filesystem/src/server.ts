/**
 * The filesystem server: its tools, resources and the client-roots handshake, as one ServerSpec
 * for the shared bootstrap.
 */
import type { ServerSpec } from '@refmcp/shared/server';
import pkg from '../package.json' with { type: 'json' };
import { type Config, configure, OPTIONS, OPTIONS_HELP } from './config.js';
import { registerResources } from './resources.js';
import { registerRoots } from './roots.js';
import { listTools } from './tools/list.js';
import { readTools } from './tools/read.js';
import { searchTools } from './tools/search.js';
import { writeTools } from './tools/write.js';

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
  ready: (config) => config.workspace.settled(),
  configure,
  tools: (config) => [
    ...readTools(config),
    ...listTools(config),
    ...searchTools(config),
    ...writeTools(config),
  ],
  instructions: (config) =>
    `Files under ${config.workspace.operator.roots.map((r) => r.configured).join(', ')}` +
    (config.readOnly ? ' (read-only).' : '.') +
    ' Relative paths resolve against the first allowed directory. Listings, trees and searches are paginated:' +
    ' pass nextCursor back as cursor. Use search_file_contents to find text, read_text_file with offset/limit to read parts of big files.',
  register: (server, config, context) => {
    registerResources(server, config, context);
    registerRoots(server, config, context);
  },
};
