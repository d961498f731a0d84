// The spec check as a vitest globalSetup: before the suite, a fresh traffic directory for the
// vendor fakes to record into (workers inherit the environment); after it, one check over all the
// traffic every test file sent, failing the run with one line per problem.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readTraffic, TRAFFIC_DIR_ENV } from '../fake-api/index.js';
import { checkTraffic, type TrafficReport } from './check.js';
import type { SpecSource } from './source.js';

/** Options of {@link specCheckSetup}. */
export interface SpecCheckOptions {
  /** Called with the report (e.g. to print a summary); default prints one line to stderr. */
  onReport?: (report: TrafficReport) => void;
}

/**
 * A vitest `globalSetup` (export it as the module's default): records the traffic of every fake
 * whose `vendor` is a key of `sources` and checks it against that vendor's description when the
 * run ends (sources are loaded only then, and only for vendors that saw traffic). Throws from the
 * teardown, naming each problem's operation, status and schema
 * error, and sets the exit status to 1 (vitest only logs teardown errors). Set
 * REFMCP_FAKE_TRAFFIC_DIR yourself to keep the recorded traffic for inspection.
 */
export function specCheckSetup(
  sources: Record<string, () => SpecSource | Promise<SpecSource>>,
  options: SpecCheckOptions = {},
): () => () => Promise<void> {
  return () => {
    const kept = process.env[TRAFFIC_DIR_ENV];
    const dir = kept ?? mkdtempSync(join(tmpdir(), 'refmcp-fake-traffic-'));
    process.env[TRAFFIC_DIR_ENV] = dir;
    return async () => {
      try {
        const traffic = readTraffic(dir);
        const loaded: Record<string, SpecSource> = {};
        for (const vendor of new Set(traffic.map((x) => x.vendor))) {
          const load = sources[vendor];
          if (load) loaded[vendor] = await load();
        }
        const report = checkTraffic(traffic, loaded);
        (options.onReport ?? printSummary)(report);
        if (report.problems.length) {
          // vitest logs a teardown error but keeps the exit status: set it so the run fails.
          process.exitCode = 1;
          throw new Error(
            `spec check: the fakes answered ${report.problems.length} way(s) their vendors' descriptions do not allow:\n  ${report.problems.join('\n  ')}`,
          );
        }
      } finally {
        if (!kept) rmSync(dir, { recursive: true, force: true });
      }
    };
  };
}

function printSummary(r: TrafficReport): void {
  process.stderr.write(
    `spec check: ${r.checked} replies checked against the vendors' descriptions, ${r.validated} JSON bodies validated, ${r.faults} injected faults and ${r.unrouted} unrouted requests skipped, ${r.problems.length} problem(s)\n`,
  );
}
