/**
 * Tool snapshots: each tool's `tools/list` entry committed as `<dir>/<tool>.json`, so that every
 * change to what a model sees (a renamed argument, a reworded description, a changed hint) shows
 * in review. Compared in each server's conformance test; `UPDATE_TOOLSNAPS=1` rewrites them.
 * After github/github-mcp-server `internal/toolsnaps`.
 *
 * A snapshot file is pretty JSON (2 spaces, object keys sorted at every level, trailing newline).
 * For a server with toolsets it is `{ "tool": <entry>, "toolset": "<name>" }`, so that moving a tool
 * to another toolset shows too; otherwise it is the entry itself.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Tool } from '@modelcontextprotocol/client';

/** The environment variable that switches snapshot checks to rewriting them. */
export const UPDATE_TOOLSNAPS_ENV = 'UPDATE_TOOLSNAPS';

/** One tool as committed: its `tools/list` entry and, on servers with toolsets, its toolset. */
export interface ToolSnapshot {
  tool: Tool;
  toolset?: string;
}

/** What {@link checkToolSnapshots} found (check mode) or did (update mode). */
export interface ToolSnapshotReport {
  /** One message per missing, stale or orphaned snapshot, each saying how to refresh; [] in update mode. */
  problems: string[];
  /** Snapshot files written (update mode only). */
  written: string[];
  /** Snapshot files removed because their tool is no longer served (update mode only). */
  removed: string[];
}

/** Options of {@link checkToolSnapshots}. */
export interface ToolSnapshotOptions {
  /** Rewrite stale and missing snapshots and remove orphans instead of reporting them. */
  update?: boolean;
  /** The command that refreshes them, for messages; default `UPDATE_TOOLSNAPS=1 npx vitest run`. */
  refresh?: string;
}

/** `value` with the keys of every object sorted (arrays keep their order). */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortKeys((value as Record<string, unknown>)[k])]),
  );
}

/** The committed text of a snapshot: sorted keys, 2-space indent, trailing newline. */
export function toolSnapshotText(snapshot: ToolSnapshot): string {
  const body = snapshot.toolset === undefined ? snapshot.tool : snapshot;
  return `${JSON.stringify(sortKeys(body), null, 2)}\n`;
}

function dirPath(dir: string | URL): string {
  return typeof dir === 'string' ? dir : fileURLToPath(dir);
}

/** The snapshot files in `dir` (`*.json`), by tool name; empty when `dir` does not exist. */
async function snapshotFiles(dir: string): Promise<Map<string, string>> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
  return new Map(names.filter((n) => n.endsWith('.json')).map((n) => [n.slice(0, -5), join(dir, n)]));
}

/**
 * The committed snapshots in `dir`, by tool name. Errors: rejects when a file is not valid JSON.
 */
export async function readToolSnapshots(dir: string | URL): Promise<Map<string, ToolSnapshot>> {
  const out = new Map<string, ToolSnapshot>();
  for (const [name, file] of await snapshotFiles(dirPath(dir))) {
    const json = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    out.set(
      name,
      'tool' in json && !('name' in json)
        ? { tool: json.tool as Tool, ...(typeof json.toolset === 'string' ? { toolset: json.toolset } : {}) }
        : { tool: json as unknown as Tool },
    );
  }
  return out;
}

/** First differing line of two texts, as "line N: committed … / served …". */
function firstDifference(committed: string, served: string): string {
  const a = committed.split('\n');
  const b = served.split('\n');
  const i = a.findIndex((line, n) => line !== b[n]);
  const at = i < 0 ? a.length : i;
  return `line ${at + 1}: committed ${JSON.stringify(a[at] ?? '')}, served ${JSON.stringify(b[at] ?? '')}`;
}

/**
 * Compares `snapshots` (the tools as served now) with the files in `dir`: a tool without a file
 * (missing), a file whose text differs (stale) and a file for a tool no longer served (orphan) are
 * each a problem naming the file and the refresh command. With `update`, writes the missing and
 * stale files (creating `dir`), removes the orphans and reports no problems.
 * Errors: rejects on file-system errors other than a missing `dir`.
 */
export async function checkToolSnapshots(
  dir: string | URL,
  snapshots: ToolSnapshot[],
  opts: ToolSnapshotOptions = {},
): Promise<ToolSnapshotReport> {
  const path = dirPath(dir);
  const refresh = opts.refresh ?? `${UPDATE_TOOLSNAPS_ENV}=1 npx vitest run`;
  const files = await snapshotFiles(path);
  const report: ToolSnapshotReport = { problems: [], written: [], removed: [] };
  for (const snapshot of snapshots) {
    const name = snapshot.tool.name;
    const file = join(path, `${name}.json`);
    const served = toolSnapshotText(snapshot);
    const committed = files.has(name) ? await readFile(file, 'utf8') : undefined;
    files.delete(name);
    if (committed === served) continue;
    if (opts.update) {
      await mkdir(path, { recursive: true });
      await writeFile(file, served);
      report.written.push(file);
    } else if (committed === undefined) {
      report.problems.push(`${name}: no snapshot at ${file}; run ${refresh} to write it, then commit it`);
    } else {
      report.problems.push(
        `${name}: tools/list entry differs from ${file} (${firstDifference(committed, served)}); ` +
          `if the change is intended, run ${refresh} and commit the diff`,
      );
    }
  }
  for (const [name, file] of files) {
    if (opts.update) {
      await rm(file);
      report.removed.push(file);
    } else {
      report.problems.push(
        `${name}: ${file} is the snapshot of a tool that is no longer served; run ${refresh} to remove it`,
      );
    }
  }
  return report;
}
