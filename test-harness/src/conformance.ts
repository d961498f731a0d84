/**
 * `describeConformance()`: the vitest suite every server's `test/conformance.test.ts` runs — the
 * harness checks (ALL-01 … ALL-08) against the built server, its tool snapshots, its read-only
 * selection and its README tool table. A server's file states only what is its own: launch
 * arguments, secrets, the slow call, extra expectations. Imported from
 * `@refmcp/test-harness/conformance` (it needs vitest; the main entry does not).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Tool } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltServer, startBuiltServer, tempDir } from './built-server.js';
import { checkServer } from './check-server.js';
import type { CheckReport, CheckServerOptions } from './checks/context.js';
import { serverBin } from './connect.js';
import { renderToolsetTables, renderToolsTable, withToolsTable } from './docs.js';
import {
  checkToolSnapshots,
  readToolSnapshots,
  type ToolSnapshot,
  UPDATE_TOOLSNAPS_ENV,
} from './toolsnaps.js';

/** The suite's fresh temp directory (removed after the file) and the audit log the check run writes in it. */
export interface ConformanceContext {
  dir: string;
  auditLog: string;
}

/** The checkServer run: what it adds to the all-tools launch, and the check options. */
export interface ConformanceCheck extends Omit<CheckServerOptions, 'auditLog'> {
  /** Arguments added for this run only (`--audit-log <ctx.auditLog>` is always added). */
  args?: string[];
  /** Environment added for this run only, e.g. a credential that must never be echoed (ALL-03). */
  env?: Record<string, string>;
}

/** Options of {@link describeConformance}. */
export interface ConformanceOptions {
  /** The server's directory under `servers/` (e.g. `sqlite`): the built bin that is spawned. */
  server: string;
  /** The conformance test file's `import.meta.url`: snapshots in `./__toolsnaps__/`, README at `../README.md`. */
  testFile: string;
  /** Prepares `ctx.dir` (fixture files, a database) before any launch. */
  setup?: (ctx: ConformanceContext) => void | Promise<void>;
  /** Arguments of every launch (after the bin), e.g. the allowed directory or the database. */
  args?: (ctx: ConformanceContext) => string[];
  /** Environment of every launch, e.g. the fake API's URL and its token. */
  env?: (ctx: ConformanceContext) => Record<string, string>;
  /** Arguments that serve every tool (e.g. `['--allow-writes']`), for the snapshots, README and checks. */
  allTools?: string[];
  /** The harness checks' own arguments, environment, secrets, slow call and timeouts. */
  check: (ctx: ConformanceContext) => ConformanceCheck;
  /** Arguments of a read-only launch (added to `args`): it must serve exactly the tools snapshotted `readOnlyHint: true`. */
  readOnly?: string[];
  /**
   * The server's toolsets, in README order. Each tool's snapshot then records its toolset (found by
   * launching with `--toolsets <name>`), and the README table has one section per toolset.
   */
  toolsets?: string[];
  /** Time allowed for the harness checks, in milliseconds; default 240 000. */
  timeoutMs?: number;
  /** Further assertions on the checks' report (e.g. the wording of a timeout). */
  expectReport?: (report: CheckReport) => void;
}

/** The tools as served with every tool enabled, each with its toolset; and the toolsets off by default. */
interface Served {
  snapshots: ToolSnapshot[];
  offByDefault: Set<string>;
}

/**
 * Registers, in the calling file: a temp dir (`beforeAll`/`afterAll`), `describe('conformance
 * (ALL-01 … ALL-08)')` with the checkServer run (no check may fail or be skipped), and
 * `describe('tools')` with the snapshot comparison (`UPDATE_TOOLSNAPS=1` rewrites), the read-only
 * selection (when `readOnly` is given) and the README tool table (`UPDATE_README=1` rewrites).
 * Returns the context, filled in before the first test, for the file's own extra tests.
 */
export function describeConformance(opts: ConformanceOptions): ConformanceContext {
  const ctx = {} as ConformanceContext;
  let cleanup: (() => Promise<void>) | undefined;
  const pkg = `@refmcp/server-${opts.server}`;
  const base = () => opts.args?.(ctx) ?? [];
  const env = () => opts.env?.(ctx) ?? {};
  const allTools = opts.allTools ?? [];

  beforeAll(async () => {
    const made = await tempDir(`refmcp-${opts.server}-conf-`);
    cleanup = made.cleanup;
    Object.assign(ctx, { dir: made.dir, auditLog: join(made.dir, 'audit.log') });
    await opts.setup?.(ctx);
  });
  afterAll(() => cleanup?.());

  const list = async (args: string[]): Promise<Tool[]> => {
    const conn = await startBuiltServer(opts.server, [...base(), ...args], { env: env() });
    try {
      return await conn.tools();
    } finally {
      await conn.close();
    }
  };

  let served: Promise<Served> | undefined;
  const servedTools = (): Promise<Served> => {
    served ??= (async () => {
      const tools = await list(allTools);
      const toolsetOf = new Map<string, string>();
      const offByDefault = new Set<string>();
      if (opts.toolsets) {
        const byDefault = new Set((await list([])).map((t) => t.name));
        for (const set of opts.toolsets) {
          const names = (await list(['--toolsets', set])).map((t) => t.name);
          for (const name of names) toolsetOf.set(name, set);
          if (!names.some((n) => byDefault.has(n))) offByDefault.add(set);
        }
      }
      const snapshots = tools.map((tool) => {
        const toolset = toolsetOf.get(tool.name);
        return toolset === undefined ? { tool } : { tool, toolset };
      });
      return { snapshots, offByDefault };
    })();
    return served;
  };

  describe('conformance (ALL-01 … ALL-08)', () => {
    it(
      'passes every harness check',
      async () => {
        const bin = serverBin(opts.server);
        const { args = [], env: checkEnv = {}, ...check } = opts.check(ctx);
        const report = await checkServer(
          {
            command: bin.command,
            args: [...bin.args, ...base(), ...allTools, ...args, '--audit-log', ctx.auditLog],
            env: { ...env(), ...checkEnv },
          },
          { ...check, auditLog: ctx.auditLog },
        );
        const failed = report.checks.filter((c) => !c.ok).map((c) => `${c.id}: ${c.details.join('; ')}`);
        expect(failed).toEqual([]);
        expect(report.checks.filter((c) => c.skipped).map((c) => c.id)).toEqual([]);
        opts.expectReport?.(report);
      },
      opts.timeoutMs ?? 240_000,
    );
  });

  describe('tools', () => {
    it(`tools/list matches test/__toolsnaps__ (${UPDATE_TOOLSNAPS_ENV}=1 rewrites it)`, async () => {
      const { snapshots } = await servedTools();
      const report = await checkToolSnapshots(new URL('./__toolsnaps__/', opts.testFile), snapshots, {
        update: process.env[UPDATE_TOOLSNAPS_ENV] === '1',
        refresh: `${UPDATE_TOOLSNAPS_ENV}=1 pnpm --filter ${pkg} test`,
      });
      expect(report.problems).toEqual([]);
    });

    if (opts.readOnly) {
      const readOnly = opts.readOnly;
      it('read-only serves exactly the tools snapshotted readOnlyHint: true', async () => {
        const snaps = await readToolSnapshots(new URL('./__toolsnaps__/', opts.testFile));
        const expected = [...snaps].filter(([, s]) => s.tool.annotations?.readOnlyHint === true);
        const tools = await list(readOnly);
        expect(tools.map((t) => t.name).sort()).toEqual(expected.map(([name]) => name).sort());
      });
    }

    it('README tool table is generated from the definitions and current (UPDATE_README=1 rewrites it)', async () => {
      const readmePath = fileURLToPath(new URL('../README.md', opts.testFile));
      const { snapshots, offByDefault } = await servedTools();
      const tools = snapshots.map((s) => s.tool);
      const table = opts.toolsets
        ? renderToolsetTables(
            opts.toolsets.map((name) => ({
              name,
              offByDefault: offByDefault.has(name),
              tools: snapshots.filter((s) => s.toolset === name).map((s) => s.tool),
            })),
          )
        : renderToolsTable(tools);
      const readme = await readFile(readmePath, 'utf8');
      const current = withToolsTable(readme, table);
      if (process.env.UPDATE_README === '1') await writeFile(readmePath, current);
      expect(
        readme,
        `README tool table is stale: run UPDATE_README=1 npx -y pnpm@12.4.2 --filter ${pkg} test`,
      ).toBe(current);
    });
  });

  return ctx;
}

/** One launch of a tool-selection check: the arguments, and exactly the tools they must serve. */
export interface ToolsetSelectionOptions {
  /** The server's `test/__toolsnaps__/` directory (snapshots carry each tool's toolset and hints). */
  snapshots: URL;
  /** Launches the built server with extra arguments. */
  start: (args: string[]) => Promise<BuiltServer>;
  /** The reference server's tool names: all served by default. */
  parity: readonly string[];
  /** Toolsets that are off by default (their tools are not served without --toolsets). */
  offByDefault: readonly string[];
  /** A default toolset and two of its tools (one read-only, one write) for the selection cases. */
  sample: { toolset: string; read: string; write: string };
}

/**
 * `toolsets`: the default launch serves every snapshotted tool outside `offByDefault`, the parity
 * tools among them; `--toolsets X` serves exactly X's tools; `--tools` serves exactly those;
 * `--exclude-tools` removes; `--read-only` beats them all. Expectations come from the committed
 * snapshots, so a tool moved to another toolset fails here too.
 */
export function describeToolsetSelection(opts: ToolsetSelectionOptions): void {
  const { start, sample } = opts;
  let snapshots: Map<string, ToolSnapshot>;
  beforeAll(async () => {
    snapshots = await readToolSnapshots(opts.snapshots);
  });
  const named = (keep: (name: string, snap: ToolSnapshot) => boolean) =>
    [...snapshots].filter(([name, snap]) => keep(name, snap)).map(([name]) => name);
  const served = async (args: string[]) => {
    const conn = await start(args);
    try {
      return (await conn.tools()).map((t) => t.name).sort();
    } finally {
      await conn.close();
    }
  };

  describe('toolsets', () => {
    it(`default toolsets serve the ${opts.parity.length} reference tools and the rest, ${opts.offByDefault.join(', ')} off`, async () => {
      const names = await served([]);
      expect(names).toEqual(named((_, s) => !opts.offByDefault.includes(s.toolset ?? '')).sort());
      for (const p of opts.parity) expect(names).toContain(p);
    });

    it('--toolsets, --tools and --exclude-tools select; --read-only beats them all', async () => {
      const pair = `${sample.read},${sample.write}`;
      const cases: [string[], string[]][] = [
        ...opts.offByDefault.map((t): [string[], string[]] => [
          ['--toolsets', t],
          named((_, s) => s.toolset === t),
        ]),
        [
          ['--tools', pair],
          [sample.read, sample.write],
        ],
        [['--tools', pair, '--read-only'], [sample.read]],
        [
          ['--toolsets', sample.toolset, '--exclude-tools', sample.write],
          named((n, s) => s.toolset === sample.toolset && n !== sample.write),
        ],
        [['--toolsets', 'all', '--read-only'], named((_, s) => s.tool.annotations?.readOnlyHint === true)],
      ];
      for (const [args, expected] of cases)
        expect(await served(args), args.join(' ')).toEqual([...expected].sort());
    });
  });
}
