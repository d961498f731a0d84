// Read a server's launch target from a host config file: Claude Desktop / Cursor / Windsurf style
// `{"mcpServers": {name: {command, args, env, cwd}}}` or VS Code's `{"servers": {...}}` (JSONC).
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, resolve } from 'node:path';
import { type ParseError, parse as parseJsonc, printParseErrorCode } from 'jsonc-parser';
import type { LaunchTarget } from './transport.js';

/** A config problem the user must fix (the CLI maps it to exit code 2). */
export class HostConfigError extends Error {
  override name = 'HostConfigError';
}

interface ServerEntry {
  type?: unknown;
  command?: unknown;
  args?: unknown;
  env?: unknown;
  cwd?: unknown;
  url?: unknown;
}

/** Expands `${env:NAME}`, `${userHome}` and `${workspaceFolder}` (= the current directory) as VS Code and Cursor do. */
function expand(value: string): string {
  return value
    .replace(/\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => process.env[name] ?? '')
    .replace(/\$\{userHome\}/g, homedir())
    .replace(/\$\{workspaceFolder\}/g, process.cwd());
}

function stringArray(value: unknown, what: string): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw new HostConfigError(`${what} must be an array of strings`);
  return (value as string[]).map(expand);
}

function stringRecord(value: unknown, what: string): Record<string, string> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new HostConfigError(`${what} must be an object`);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v !== 'string') throw new HostConfigError(`${what}.${k} must be a string`);
    out[k] = expand(v);
  }
  return out;
}

/** The server entries of a parsed host config (`mcpServers`, else VS Code's `servers`). */
export function serverEntries(config: unknown): Record<string, unknown> {
  const root = (config ?? {}) as { mcpServers?: unknown; servers?: unknown };
  const entries = root.mcpServers ?? root.servers;
  if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) {
    throw new HostConfigError('no "mcpServers" (or VS Code "servers") object in the config');
  }
  return entries as Record<string, unknown>;
}

/** One server of a host config: its name and how to launch it. */
export interface HostConfigServer {
  name: string;
  server: LaunchTarget;
}

/**
 * Server `name` from the host config at `path`, with `${env:X}`/`${userHome}`/`${workspaceFolder}`
 * expanded and a relative `cwd` resolved against the config file's directory.
 * Errors: HostConfigError for an unreadable or invalid file, an unknown name (the message lists the
 * known ones) or a non-stdio (url/http/sse) entry.
 */
export function readHostConfig(path: string, name: string | undefined): HostConfigServer {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new HostConfigError(`cannot read ${path}: ${(error as Error).message}`);
  }
  // VS Code's mcp.json is JSONC (comments, trailing commas): parse with VS Code's own parser.
  const errors: ParseError[] = [];
  const parsed: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) {
    const first = errors[0] as ParseError;
    throw new HostConfigError(
      `${path} is not valid JSON: ${printParseErrorCode(first.error)} at offset ${first.offset}`,
    );
  }
  const entries = serverEntries(parsed);
  const entry = name === undefined ? undefined : (entries[name] as ServerEntry | undefined);
  if (name === undefined || !entry || typeof entry !== 'object') {
    const has = `has: ${Object.keys(entries).join(', ') || 'none'}`;
    throw new HostConfigError(
      name === undefined
        ? `--server NAME is needed with --config: which server of ${path}? (${has})`
        : `no server "${name}" in ${path} (${has})`,
    );
  }
  if (entry.url !== undefined || (entry.type !== undefined && entry.type !== 'stdio')) {
    throw new HostConfigError(
      `server "${name}" is not a stdio server (type ${JSON.stringify(entry.type ?? 'url')})`,
    );
  }
  if (typeof entry.command !== 'string' || entry.command === '')
    throw new HostConfigError(`server "${name}" has no "command"`);
  const target: LaunchTarget = {
    command: expand(entry.command),
    args: stringArray(entry.args, `${name}.args`),
    env: stringRecord(entry.env, `${name}.env`),
  };
  if (entry.cwd !== undefined) {
    if (typeof entry.cwd !== 'string') throw new HostConfigError(`${name}.cwd must be a string`);
    const cwd = expand(entry.cwd);
    target.cwd = isAbsolute(cwd) ? cwd : resolve(dirname(path), cwd);
  }
  return { name, server: target };
}
