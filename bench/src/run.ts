/**
 * `pnpm bench`: runs our filesystem server and the official one on the same work, alternating,
 * and prints ours vs official with ratios and goals (DESIGN.md §4). Benchmarks never fail on a
 * number: the exit status is 0 unless the bench itself fails.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { runBrowserSuite } from './browser/suite.js';
import { parseOptions, USAGE, UsageError, type WorkloadId } from './config.js';
import { runDriveSuite } from './drive/suite.js';
import { runGithubSuite } from './github/suite.js';
import { runGitlabSuite } from './gitlab/suite.js';
import { runHttpScaleSuite } from './httpscale/suite.js';
import { errorText } from './measure.js';
import { runPostgresInsightSuite } from './postgres/insight.js';
import { runPostgresSuite } from './postgres/suite.js';
import { type Report, renderJson, renderText } from './report.js';
import { runSearchSuite } from './search/suite.js';
import { BENCH_DIR, locateServers, reportedVersions, SIDES } from './servers.js';
import { runSlackSuite } from './slack/suite.js';
import { runSqliteSuite } from './sqlite/suite.js';
import { bigFileWorkload } from './workloads/bigfile.js';
import { coldWorkload } from './workloads/cold.js';
import type { Context, WorkloadResult } from './workloads/common.js';
import { contextWorkload } from './workloads/context.js';
import { firstStartWorkload } from './workloads/firststart.js';
import { readWorkload } from './workloads/read.js';
import { searchWorkload } from './workloads/search.js';
import { treeWorkload } from './workloads/tree.js';

const WORKLOAD_RUNNERS: Record<WorkloadId, (ctx: Context) => Promise<WorkloadResult>> = {
  read: readWorkload,
  cold: coldWorkload,
  search: searchWorkload,
  tree: treeWorkload,
  bigfile: bigFileWorkload,
  postgres: runPostgresSuite,
  pginsight: runPostgresInsightSuite,
  sqlite: runSqliteSuite,
  browser: runBrowserSuite,
  github: runGithubSuite,
  gitlab: runGitlabSuite,
  drive: runDriveSuite,
  slack: runSlackSuite,
  websearch: runSearchSuite,
  httpscale: runHttpScaleSuite,
  context: contextWorkload,
  firststart: firstStartWorkload,
};

async function main(): Promise<number> {
  let options: ReturnType<typeof parseOptions>;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\n${USAGE}`);
    return 2;
  }
  if (options.help) {
    console.log(USAGE);
    return 0;
  }
  const started = performance.now();
  const log = (message: string) =>
    console.error(`[bench ${((performance.now() - started) / 1000).toFixed(1).padStart(6)} s] ${message}`);

  const servers = locateServers();
  for (const side of SIDES) {
    const s = servers[side];
    log(`${side}: ${s.label}${s.missing ? ` — ${s.missing}; its figures are skipped` : ''}`);
  }
  const ctx: Context = {
    servers,
    sizes: options.sizes,
    dataRoot: join(BENCH_DIR, '.bench-data'),
    log,
    offline: options.offline,
  };
  const report: Report = {
    machine: {
      cores: cpus().length,
      cpu: cpus()[0]?.model.trim() ?? '?',
      node: process.version,
      platform: `${process.platform}-${process.arch}`,
      memoryGiB: Math.round(totalmem() / 1024 ** 3),
      load: { start: loadavg()[0] ?? 0 },
    },
    servers: {
      ours: { label: servers.ours.label, missing: servers.ours.missing },
      official: { label: servers.official.label, missing: servers.official.missing },
    },
    mode: options.quick ? 'quick' : 'full',
    rows: [],
    answers: [],
    notes: [],
    crashes: [],
  };

  for (const [id, run] of Object.entries(WORKLOAD_RUNNERS) as [
    WorkloadId,
    (ctx: Context) => Promise<WorkloadResult>,
  ][]) {
    if (!options.only.has(id)) continue;
    log(`workload ${id}`);
    try {
      const result = await run(ctx);
      report.rows.push(...result.rows);
      report.answers.push(...(result.answers ?? []));
      report.notes.push(...(result.notes ?? []));
    } catch (error) {
      const message = `workload ${id}: ${error instanceof Error ? (error.stack ?? error.message) : errorText(error)}`;
      report.crashes.push(message);
      log(message);
    }
  }
  for (const side of SIDES) report.servers[side].reported = reportedVersions[side];
  report.machine.load.end = loadavg()[0];
  log(`done in ${((performance.now() - started) / 1000).toFixed(0)} s`);

  console.log(options.json ? renderJson(report) : renderText(report));
  return report.crashes.length ? 1 : 0;
}

process.exitCode = await main();
