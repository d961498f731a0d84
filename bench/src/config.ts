/**
 * Command line of the bench and the workload sizes it implies (full run or `--quick` smoke run).
 */
import { parseArgs } from 'node:util';

/** The workloads, each measuring one or more of the metrics in DESIGN.md §4. */
export const WORKLOADS = [
  'read',
  'cold',
  'search',
  'tree',
  'bigfile',
  'postgres',
  'pginsight',
  'sqlite',
  'browser',
  'github',
  'gitlab',
  'drive',
  'slack',
  'websearch',
  'httpscale',
  'context',
  'firststart',
] as const;
export type WorkloadId = (typeof WORKLOADS)[number];

/** Names accepted by `--only`: workload ids, metric numbers 1–6 and a few obvious aliases. */
const ALIASES: Record<string, WorkloadId> = {
  '1': 'read',
  '2': 'cold',
  '3': 'read',
  '4': 'search',
  '5': 'tree',
  '6': 'bigfile',
  calls: 'read',
  throughput: 'read',
  latency: 'read',
  rss: 'read',
  coldstart: 'cold',
  start: 'cold',
  search_files: 'search',
  directory_tree: 'tree',
  big: 'bigfile',
  tail: 'bigfile',
  whole: 'bigfile',
  http: 'httpscale',
  scaleout: 'httpscale',
  pg: 'postgres',
  insight: 'pginsight',
  sqlite3: 'sqlite',
  playwright: 'browser',
  gh: 'github',
  gl: 'gitlab',
  gdrive: 'drive',
  tokens: 'context',
  'tools/list': 'context',
  first: 'firststart',
  npx: 'firststart',
};

export interface Sizes {
  /** Small files read by the throughput workload, and their size in bytes. */
  smallFiles: number;
  smallFileBytes: number;
  /** Timed `read_text_file` calls per repetition, requests in flight, untimed warm-up calls. */
  calls: number;
  inFlight: number;
  warmupCalls: number;
  /** Repetitions (fresh server each) of the throughput workload per server. */
  readReps: number;
  /** Timed cold starts per server (after one untimed start each). */
  coldStarts: number;
  /** First starts (`npx -y`, empty npm cache) per side and server. */
  firstStarts: number;
  /** The big tree: directories × files per directory (plus `needles` planted needle.txt files). */
  treeDirs: number;
  treeFilesPerDir: number;
  needles: number;
  /** Repetitions per server of the search and tree workloads. */
  heavyReps: number;
  /** Size of the big file in MiB (the official server fails above ~512 MiB). */
  bigFileMiB: number;
  /** Timed tail calls per connection, and repetitions (fresh server each). */
  tailCalls: number;
  tailReps: number;
  /** Timeout of one tool call in ms (the official server can take many seconds). */
  callTimeoutMs: number;
}

export const FULL: Sizes = {
  smallFiles: 100,
  smallFileBytes: 1024,
  calls: 2000,
  inFlight: 32,
  warmupCalls: 200,
  readReps: 3,
  coldStarts: 10,
  firstStarts: 3,
  treeDirs: 1000,
  treeFilesPerDir: 100,
  needles: 10,
  heavyReps: 3,
  bigFileMiB: 560,
  tailCalls: 5,
  tailReps: 3,
  callTimeoutMs: 10 * 60_000,
};

export const QUICK: Sizes = {
  ...FULL,
  calls: 300,
  warmupCalls: 50,
  readReps: 1,
  coldStarts: 3,
  firstStarts: 2,
  treeDirs: 100,
  heavyReps: 1,
  bigFileMiB: 16,
  tailCalls: 3,
  tailReps: 1,
  callTimeoutMs: 2 * 60_000,
};

export interface Options {
  only: Set<WorkloadId>;
  quick: boolean;
  json: boolean;
  /** Skip what needs the network (the firststart suite installs from registry.npmjs.org). */
  offline: boolean;
  help: boolean;
  sizes: Sizes;
}

export const USAGE = `usage: node dist/run.js [--only WORKLOAD,…] [--quick] [--json] [--offline]
  --only    run some workloads: read (metrics 1 and 3), cold (2), search (4), tree (5), bigfile (6);
            metric numbers 1–6 work too; postgres (pg) runs the PostgreSQL suite (P1–P3);
            pginsight (insight) I1: insight tools' result bytes vs Postgres MCP Pro (rebuilt);
            sqlite runs the SQLite suite (S1–S3); browser runs the browser suite (B1–B4);
            github (gh) runs the GitHub suite (G1–G3); gitlab (gl) the GitLab suite (L1–L3);
            slack runs the Slack suite (SL1–SL3); websearch the web-search suite (W1–W3, vs both
            official Brave servers); httpscale (http) H1–H2: search calls/s over HTTP at 1, 10
            and 100 clients, one instance and two behind nginx, vs Brave 2.x over HTTP;
            drive (gdrive) runs D1 (a 50-hit search vs
            the raw API JSON); context runs C1–C3 (what tools/list costs
            a model: model bytes and whole tools/list, per server, ours vs official); firststart
            (first, npx) runs F1 (first \`npx -y\` with an empty npm cache → tools/list; network)
  --quick   small sizes, one repetition: a smoke run
  --json    machine-readable result on stdout (progress stays on stderr)
  --offline skip what needs registry.npmjs.org (firststart); it is also skipped when unreachable
environment:
  BENCH_SERVER_NODE_ARGS  Node options for every server under test, e.g.
            "--cpu-prof --cpu-prof-dir=/tmp/prof" (one .cpuprofile per server process)`;

export class UsageError extends Error {}

export function parseOptions(argv: string[]): Options {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values } = parsed;
  const only = new Set<WorkloadId>();
  for (const name of (values.only ?? []).flatMap((v) => v.split(','))) {
    const key = name.trim().toLowerCase();
    if (!key) continue;
    const id = (WORKLOADS as readonly string[]).includes(key) ? (key as WorkloadId) : ALIASES[key];
    if (!id) throw new UsageError(`--only: unknown workload "${name}" (known: ${WORKLOADS.join(', ')})`);
    only.add(id);
  }
  const quick = values.quick ?? false;
  return {
    only: only.size ? only : new Set(WORKLOADS),
    quick,
    json: values.json ?? false,
    offline: values.offline ?? false,
    help: values.help ?? false,
    sizes: quick ? QUICK : FULL,
  };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    options: {
      only: { type: 'string', multiple: true },
      quick: { type: 'boolean' },
      json: { type: 'boolean' },
      offline: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    allowPositionals: false,
  });
}
