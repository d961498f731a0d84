/**
 * An MCPB manifest (manifest_version 0.3, @anthropic-ai/mcpb 2.1) for one server, built from its
 * release tarball's package.json and server.json, its live `tools/list`, and its user_config
 * fields (user-config.ts). The server runs as `node ${__dirname}/server/dist/index.js …`.
 */
import type { Tarball } from '../tarballs.js';
import type { BundlePlatform } from './platforms.js';
import { USER_CONFIG, type UserConfigField } from './user-config.js';

export interface ListedTool {
  name: string;
  description?: string;
}

/** The first sentence of a tool description (at most 200 characters): the manifest lists, it does not document. */
function summary(description = ''): string {
  const first = description.split(/(?<=\.)\s|\n/)[0] ?? '';
  return first.length > 200 ? `${first.slice(0, 199)}…` : first;
}

function placeholder(f: UserConfigField): string {
  return `\${user_config.${f.key}}`;
}

/**
 * `platform`: "any" for a bundle without a native module (all three OSes), else the `<os>-<arch>`
 * it holds the binary of; MCPB's `compatibility.platforms` names OSes only, so two bundles (darwin
 * arm64 and x64) both say "darwin" and are told apart by their file names.
 */
export function buildManifest(t: Tarball, tools: ListedTool[], platform: BundlePlatform = 'any') {
  const pkg = t.packageJson as typeof t.packageJson & {
    description?: string;
    keywords?: string[];
    license?: string;
  };
  const server = t.serverJson as { name: string; title?: string; description?: string };
  const fields = USER_CONFIG[t.dir];
  if (!fields)
    throw new Error(`no MCPB user_config for servers/${t.dir}: add it to release/src/mcpb/user-config.ts`);
  // `${__dirname}` is MCPB's own placeholder (the bundle's install directory), not a JavaScript template.
  const args = [`${'$'}{__dirname}/server/dist/index.js`];
  const env: Record<string, string> = {};
  for (const f of fields) {
    if ('positional' in f.to) args.push(placeholder(f));
    else if ('arg' in f.to) args.push(f.to.arg, placeholder(f));
    else env[f.to.env] = placeholder(f);
  }
  return {
    $schema: 'https://raw.githubusercontent.com/anthropics/mcpb/main/schemas/mcpb-manifest-v0.3.schema.json',
    manifest_version: '0.3',
    name: t.name.replace(/^@/, '').replace('/', '-'),
    display_name: server.title ?? t.dir,
    version: t.version,
    description: server.description ?? '',
    long_description: pkg.description ?? '',
    author: { name: 'refmcp', url: 'https://github.com/refmcp/refmcp' },
    repository: { type: 'git', url: 'https://github.com/refmcp/refmcp' },
    homepage: `https://github.com/refmcp/refmcp/tree/main/servers/${t.dir}`,
    license: pkg.license ?? 'MIT',
    keywords: pkg.keywords ?? [],
    server: {
      type: 'node',
      entry_point: 'server/dist/index.js',
      mcp_config: { command: 'node', args, env },
    },
    tools: tools.map((tool) => ({ name: tool.name, description: summary(tool.description) })),
    tools_generated: false,
    compatibility: {
      platforms: platform === 'any' ? ['darwin', 'win32', 'linux'] : [platform.split('-')[0] as string],
      runtimes: { node: (pkg.engines as { node?: string } | undefined)?.node ?? '>=20.19' },
    },
    user_config: Object.fromEntries(fields.map(({ key, to: _to, ...field }) => [key, field])),
    _meta: { 'io.modelcontextprotocol.registry': { name: server.name } },
  };
}
