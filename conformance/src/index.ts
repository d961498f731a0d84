/**
 * Running the official MCP conformance suite (`@modelcontextprotocol/conformance`, its
 * `conformance server` command) against one URL on the Node 22 binary of the npm package `node`
 * (the suite requires Node ≥ 22; the project's own Node is 20), and reading its verdicts from the
 * `checks.json` it writes per scenario (`<out>/server-<scenario>-<timestamp>/checks.json`).
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** The Node 22 executable the `node` package installs (its preinstall links `bin/node`). */
export const NODE22 = join(dirname(require.resolve('node/package.json')), 'bin', 'node');

/** The suite's CLI entry (`bin.conformance` of @modelcontextprotocol/conformance). */
export const CONFORMANCE_CLI = join(
  dirname(require.resolve('@modelcontextprotocol/conformance/package.json')),
  'dist',
  'index.js',
);

/**
 * The 0.2 line's CLI (`@modelcontextprotocol/conformance@0.2.0-alpha.12`, installed under the alias
 * `@modelcontextprotocol/conformance-next`): it adds `--requirements <revision>`, the scenarios a spec
 * revision requires, frozen at its release and run at that revision's wire (2026-07-28: stateless,
 * per-request `_meta`). Its package declares no `engines`; it is run on the same Node 22.
 */
export const CONFORMANCE_NEXT_CLI = join(
  dirname(require.resolve('@modelcontextprotocol/conformance-next/package.json')),
  'dist',
  'index.js',
);

/**
 * What to run: today's whole suite (`--suite all`, 0.1.16), or the scenarios a spec revision requires
 * (`--requirements <revision>`, the 0.2 line; with it the CLI also runs and reports, unscored, the
 * revision's extension and pending scenarios).
 */
export type Selection = { suite: 'all' } | { requirements: '2026-07-28' };

/** One check of a scenario, as the suite writes it. */
export interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED' | string;
  description?: string;
  errorMessage?: string;
}

/**
 * A scenario's verdict: `pass` = at least one SUCCESS and no FAILURE; `fail` = any FAILURE;
 * `none` = neither (only INFO/WARNING checks, e.g. server-sse-polling without its fixture tool).
 */
export type Verdict = 'pass' | 'fail' | 'none';

export interface ScenarioResult {
  scenario: string;
  verdict: Verdict;
  checks: Check[];
}

/** The verdict of a scenario's checks (see {@link Verdict}). */
export function verdictOf(checks: Check[]): Verdict {
  if (checks.some((c) => c.status === 'FAILURE')) return 'fail';
  return checks.some((c) => c.status === 'SUCCESS') ? 'pass' : 'none';
}

/**
 * Runs the server scenarios `selection` picks (default `--suite all`: active and pending) against
 * `url`, writing to `outDir`, and returns one result per scenario directory found. The CLI's exit
 * code is ignored (it is 1 whenever a scenario fails); the verdicts come from checks.json. Errors:
 * rejects when the CLI cannot start or runs longer than `timeoutMs` (default 60 000).
 */
export async function runConformance(
  url: URL,
  outDir: string,
  timeoutMs = 60_000,
  selection: Selection = { suite: 'all' },
): Promise<ScenarioResult[]> {
  const [cli, select] =
    'requirements' in selection
      ? [CONFORMANCE_NEXT_CLI, ['--requirements', selection.requirements]]
      : [CONFORMANCE_CLI, ['--suite', selection.suite]];
  await new Promise<void>((resolve, reject) => {
    execFile(
      NODE22,
      [cli, 'server', '--url', url.href, ...select, '-o', outDir],
      { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, env: { PATH: process.env.PATH ?? '' } },
      (error, _stdout, stderr) => {
        // Exit 1 = some scenario failed (judged below); anything else is the CLI itself failing.
        if (error && (error.killed || typeof error.code !== 'number' || error.code > 1))
          reject(new Error(`conformance CLI failed (${error.message}); stderr: ${stderr}`));
        else resolve();
      },
    );
  });
  const results: ScenarioResult[] = [];
  for (const entry of await readdir(outDir)) {
    const m = /^server-(.+)-\d{4}-\d\d-\d\dT[\d-]+Z$/.exec(entry);
    if (!m?.[1]) continue;
    // A scenario that threw before writing its checks (the CLI logs it and goes on) is a failure.
    const checks = await readFile(join(outDir, entry, 'checks.json'), 'utf8').then(
      (text) => JSON.parse(text) as Check[],
      (): Check[] => [
        { id: 'checks-written', status: 'FAILURE', errorMessage: 'the scenario wrote no checks.json' },
      ],
    );
    results.push({ scenario: m[1], verdict: verdictOf(checks), checks });
  }
  return results.sort((a, b) => a.scenario.localeCompare(b.scenario));
}
