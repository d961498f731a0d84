// Read a server's launch target from a host config file: Claude Desktop / Cursor / Windsurf style
// `{"mcpServers": {name: {command, args, env, cwd}}}` or VS Code's `{"servers": {...}}` (JSONC).
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, isAbsolute, resolve } from 'node:path';
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

/** Removes `//` and `/* *\/` comments and trailing commas outside strings (VS Code's mcp.json is JSONC). */
export function stripJsonComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      const end = stringEnd(text, i);
      out += text.slice(i, end);
      i = end - 1;
    } else if (ch === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end === -1 ? text.length : end + 1;
    } else {
      out += ch;
    }
  }
  // Second pass, comments gone: drop a comma whose next non-space character closes an object/array.
  let result = '';
  for (let i = 0; i < out.length; i++) {
    const ch = out[i];
    if (ch === '"') {
      const end = stringEnd(out, i);
      result += out.slice(i, end);
      i = end - 1;
    } else if (ch !== ',' || !closesNext(out, i + 1)) {
      result += ch;
    }
  }
  return result;
}

/** True if the next non-whitespace character at or after `from` is `}` or `]`. */
function closesNext(text: string, from: number): boolean {
  let k = from;
  while (k < text.length && /\s/.test(text[k] ?? '')) k++;
  return text[k] === '}' || text[k] === ']';
}

/** Index just past the JSON string literal that starts at `start` (a `"`). */
function stringEnd(text: string, start: number): number {
  let j = start + 1;
  while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
  return Math.min(j + 1, text.length);
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
export function readHostConfig(path: string, name: string): HostConfigServer {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new HostConfigError(`cannot read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(stripJsonComments(text));
  } catch (error) {
    throw new HostConfigError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
  const entries = serverEntries(parsed);
  const entry = entries[name] as ServerEntry | undefined;
  if (!entry || typeof entry !== 'object') {
    throw new HostConfigError(
      `no server "${name}" in ${path} (has: ${Object.keys(entries).join(', ') || 'none'})`,
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
