/**
 * Startup flags common to every refmcp server, and tool selection from them.
 *
 *   --read-only            hide every tool that is not readOnlyHint: true (always wins)
 *   --toolsets a,b|all     enable these toolsets instead of the defaults
 *   --tools a,b            enable exactly these tools (instead of toolsets)
 *   --exclude-tools a,b    remove these tools
 *   --audit-log PATH       append one JSON line per tool call (env MCP_AUDIT_LOG)
 *   --require-confirmation refuse destructive calls the client cannot ask the user about (see confirm.ts)
 *   --transport/--port/--host  stdio (default) or Streamable HTTP, see transport/http/flags.ts
 */
import type { ParseArgsConfig } from 'node:util';

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

import {
  HTTP_TRANSPORT_OPTIONS,
  type HttpServeConfig,
  httpHelp,
  httpServeConfig,
} from '../transport/http/flags.js';
import { ConfigError } from './errors.js';
import type { ToolDefinition } from './tool.js';

export interface CommonFlags {
  readOnly: boolean;
  toolsets?: string[];
  tools?: string[];
  excludeTools: string[];
  auditLog?: string;
  /** `--require-confirmation`: a tool that asks before it runs is refused when the client cannot ask. */
  requireConfirmation?: boolean;
  /** Streamable HTTP settings for `--transport http`; undefined = stdio. */
  http?: HttpServeConfig;
}

/** A named group of tools (servers with many tools); `default` sets are on unless --toolsets says otherwise. */
export interface ToolsetInfo<N extends string = string> {
  name: N;
  description: string;
  default: boolean;
}

/**
 * A server's toolsets, declared once (in `--toolsets` order) and returned unchanged, their names
 * kept as a union type: `ToolsetName<typeof TOOLSETS>`. Give the same list to `ServerSpec.toolsets`;
 * help lists it ({@link toolsetsHelp}), and {@link checkToolsets} refuses a tool naming another.
 */
export function defineToolsets<const T extends readonly ToolsetInfo[]>(toolsets: T): T {
  return toolsets;
}

/** The union of the names in a {@link defineToolsets} declaration. */
export type ToolsetName<T extends readonly ToolsetInfo[]> = T[number]['name'];

/**
 * Throws an Error (a bug in the server, so it fails at startup) when a tool names a toolset the
 * server did not declare, or, in a server that declares toolsets, names none (it could only be
 * served by --tools or --toolsets all).
 */
export function checkToolsets(
  tools: readonly Pick<ToolDefinition, 'name' | 'toolset'>[],
  toolsets: readonly ToolsetInfo[],
): void {
  const declared = new Set(toolsets.map((s) => s.name));
  const bad = tools.filter((t) => (t.toolset === undefined ? declared.size > 0 : !declared.has(t.toolset)));
  if (bad.length)
    throw new Error(
      `tool(s) in an undeclared toolset: ${bad.map((t) => `${t.name} (${t.toolset ?? 'none'})`).join(', ')}; declared: ${[...declared].join(', ') || 'none'}`,
    );
}

/**
 * The toolsets part of --help, from the declaration ("" without toolsets):
 *
 *   Toolsets (--toolsets; default: a,b):
 *     a, b, c, all
 */
export function toolsetsHelp(toolsets: readonly ToolsetInfo[]): string {
  if (!toolsets.length) return '';
  const defaults = toolsets.filter((s) => s.default).map((s) => s.name);
  return [
    `Toolsets (--toolsets; default: ${defaults.join(',')}):`,
    `  ${[...toolsets.map((s) => s.name), 'all'].join(', ')}`,
  ].join('\n');
}

export const COMMON_OPTIONS = {
  'read-only': { type: 'boolean' },
  toolsets: { type: 'string' },
  tools: { type: 'string' },
  'exclude-tools': { type: 'string' },
  'audit-log': { type: 'string' },
  'require-confirmation': { type: 'boolean' },
  ...HTTP_TRANSPORT_OPTIONS,
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const satisfies ParseArgsOptionsConfig;

/** The common options' help; the --toolsets line only for a server that has toolsets. */
export function commonHelp(hasToolsets: boolean): string {
  return [
    'Common options:',
    '  --read-only            expose only tools that never modify anything (beats every other switch)',
    ...(hasToolsets ? ['  --toolsets a,b|all     enable these toolsets instead of the defaults'] : []),
    '  --tools a,b            enable exactly these tools',
    '  --exclude-tools a,b    disable these tools',
    '  --audit-log PATH       append one JSON line per tool call to PATH (env MCP_AUDIT_LOG)',
    '  --require-confirmation refuse destructive calls unless the client can ask the user to confirm them',
    ...httpHelp(),
    '  -h, --help             show this help',
    '  --version              print the version',
  ].join('\n');
}

/** "a, b,,c" → ["a","b","c"]; undefined stays undefined. */
export function splitList(value: unknown): string[] | undefined {
  if (typeof value !== 'string') return undefined;
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** Reads the common flags out of parseArgs values (and env for the audit log path). */
export function commonFlags(values: Record<string, unknown>, env: NodeJS.ProcessEnv): CommonFlags {
  const auditLog = (values['audit-log'] as string | undefined) ?? (env.MCP_AUDIT_LOG || undefined);
  return {
    readOnly: values['read-only'] === true,
    toolsets: splitList(values.toolsets),
    tools: splitList(values.tools),
    excludeTools: splitList(values['exclude-tools']) ?? [],
    auditLog,
    requireConfirmation: values['require-confirmation'] === true,
    http: httpServeConfig(values, env),
  };
}

/**
 * The tools to serve: --tools (exactly those) or --toolsets (or the default toolsets), minus
 * --exclude-tools, minus every non-read-only tool under --read-only. Unknown names are a
 * ConfigError listing the valid ones, so a typo never silently serves the wrong set. `off` is the
 * server's tools this configuration does not serve, each with what turns it on (ServerSpec
 * `offTools`): --tools naming one is a ConfigError giving that (not "unknown"); --exclude-tools
 * naming one is no error (it is not served either way). --tools naming only tools --read-only hides
 * is a ConfigError naming the conflict, rather than a server with no tool.
 */
export function selectTools<T extends Pick<ToolDefinition, 'name' | 'toolset' | 'annotations'>>(
  all: readonly T[],
  flags: CommonFlags,
  toolsets: readonly ToolsetInfo[] = [],
  off: Readonly<Record<string, string>> = {},
): T[] {
  const names = new Set(all.map((t) => t.name));
  const isOff = (n: string) => Object.hasOwn(off, n);
  const unknown = (list: string[] | undefined) => (list ?? []).filter((n) => !names.has(n) && !isOff(n));
  for (const [flag, list] of [
    ['--tools', flags.tools],
    ['--exclude-tools', flags.excludeTools],
  ] as const) {
    const bad = unknown(list);
    if (bad.length)
      throw new ConfigError(`${flag}: unknown tool(s) ${bad.join(', ')}; valid: ${[...names].join(', ')}`);
  }
  const offNamed = (flags.tools ?? []).filter(isOff);
  if (offNamed.length) {
    const byReason = new Map<string, string[]>();
    for (const n of offNamed) byReason.set(off[n] ?? '', [...(byReason.get(off[n] ?? '') ?? []), n]);
    throw new ConfigError(
      `--tools: ${[...byReason].map(([why, ns]) => `${ns.join(', ')} ${ns.length === 1 ? 'is' : 'are'} off in this configuration: ${why}`).join('; ')}`,
    );
  }
  let selected: T[];
  if (flags.tools) {
    selected = all.filter((t) => flags.tools?.includes(t.name));
  } else if (toolsets.length) {
    const known = toolsets.map((s) => s.name);
    const wanted = flags.toolsets ?? toolsets.filter((s) => s.default).map((s) => s.name);
    const bad = wanted.filter((n) => n !== 'all' && !known.includes(n));
    if (bad.length)
      throw new ConfigError(
        `--toolsets: unknown toolset(s) ${bad.join(', ')}; valid: all, ${known.join(', ')}`,
      );
    selected = wanted.includes('all') ? [...all] : all.filter((t) => t.toolset && wanted.includes(t.toolset));
  } else {
    if (flags.toolsets) throw new ConfigError('--toolsets: this server has no toolsets; use --tools');
    selected = [...all];
  }
  selected = selected.filter((t) => !flags.excludeTools.includes(t.name));
  if (flags.readOnly) {
    const reading = selected.filter((t) => t.annotations.readOnlyHint);
    if (flags.tools && selected.length && !reading.length) {
      const named = selected.map((t) => t.name).join(', ');
      throw new ConfigError(
        `--tools ${named} and --read-only contradict: --read-only hides every tool that can change something, which leaves none of those; drop --read-only, or name tools that only read`,
      );
    }
    selected = reading;
  }
  return selected;
}

/**
 * Why each tool of `all` that {@link selectTools} left out of `selected` is off, and the flag that
 * turns it on: "--read-only hides it (it writes)", "--exclude-tools names it", "not in --tools",
 * "in toolset X, not enabled: --toolsets <those served now>,X (or all)". The bootstrap answers a call of such a
 * tool with this, instead of a bare "not found".
 */
export function offReasons(
  all: readonly Pick<ToolDefinition, 'name' | 'toolset' | 'annotations'>[],
  selected: readonly Pick<ToolDefinition, 'name'>[],
  flags: CommonFlags,
): Map<string, string> {
  const served = new Set(selected.map((t) => t.name));
  // --toolsets replaces the defaults: the advice keeps the toolsets served now and adds the tool's.
  const enabled = [...new Set(all.filter((t) => served.has(t.name) && t.toolset).map((t) => t.toolset))];
  const reasons = new Map<string, string>();
  for (const tool of all) {
    if (served.has(tool.name)) continue;
    let why: string;
    if (flags.readOnly && !tool.annotations.readOnlyHint)
      why = 'the server runs with --read-only, which hides every tool that can change something';
    else if (flags.excludeTools.includes(tool.name)) why = 'the server runs with --exclude-tools naming it';
    else if (flags.tools)
      why = `the server runs with --tools ${flags.tools.join(',')}; add ${tool.name} there`;
    else if (tool.toolset)
      why = `its toolset ${tool.toolset} is not enabled: start the server with --toolsets ${[...enabled, tool.toolset].join(',')} (or --toolsets all)`;
    else continue;
    reasons.set(tool.name, why);
  }
  return reasons;
}
