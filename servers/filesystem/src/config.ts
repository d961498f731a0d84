/**
 * Startup configuration: the allowed directories (positional arguments, as in the official
 * server) and the budgets. Bad input is a ConfigError (exit 2, one line on stderr).
 */
import { AllowedRoots, PathError } from '@refmcp/shared/paths';
import { ConfigError, type ConfigInput, intFlag } from '@refmcp/shared/server';
import { Workspace } from './workspace.js';

export interface Config {
  workspace: Workspace;
  readOnly: boolean;
  /** Largest file `read_text_file` returns whole, in bytes; bigger files need head/tail/offset. */
  maxFileBytes: number;
  /** Largest text a tool result carries, in bytes. */
  maxResultBytes: number;
  /** Largest number of entries a listing, tree or search returns per page. */
  maxEntries: number;
  /** Time budget for one directory walk (tree, search), in ms; partial results after it. */
  walkTimeoutMs: number;
}

export const OPTIONS = {
  'max-file-bytes': { type: 'string' },
  'max-result-bytes': { type: 'string' },
  'max-entries': { type: 'string' },
  'walk-timeout': { type: 'string' },
} as const;

export const OPTIONS_HELP = `Arguments:
  DIR …                   directories the server may read and write (at least one; ~ expanded)

Options:
  --max-file-bytes N      whole-file read limit in bytes (default 1048576); larger files are read
                          in parts with head/tail/offset/limit
  --max-result-bytes N    text budget of one result in bytes (default 262144)
  --max-entries N         entries per page of a listing, tree or search (default 1000)
  --walk-timeout MS       time budget of one directory walk in ms (default 10000)`;

export async function configure({ values, positionals, common }: ConfigInput): Promise<Config> {
  if (positionals.length === 0) {
    throw new ConfigError(
      'at least one allowed directory is required, e.g. mcp-server-filesystem ~/projects',
    );
  }
  // Node decodes argv as UTF-8 and turns each invalid byte into U+FFFD, which would name another
  // directory (one whose name really holds U+FFFD), so such an argument is refused.
  const undecodable = positionals.find((p) => p.includes('\uFFFD'));
  if (undecodable !== undefined)
    throw new ConfigError(
      `allowed directory "${undecodable}": the path is not valid UTF-8 (or holds U+FFFD), so it cannot be passed exactly as an argument; allow a parent directory whose path is valid UTF-8`,
    );
  let roots: AllowedRoots;
  try {
    roots = await AllowedRoots.fromConfig(positionals);
  } catch (error) {
    if (error instanceof PathError) throw new ConfigError(error.message);
    throw error;
  }
  return {
    workspace: new Workspace(roots),
    readOnly: common.readOnly,
    maxFileBytes: intFlag(values, 'max-file-bytes', 1024 * 1024),
    maxResultBytes: intFlag(values, 'max-result-bytes', 256 * 1024),
    maxEntries: intFlag(values, 'max-entries', 1000),
    walkTimeoutMs: intFlag(values, 'walk-timeout', 10_000),
  };
}
