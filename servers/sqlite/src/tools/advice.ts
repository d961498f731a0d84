/**
 * index_advice (candidate indexes from a statement's plan, judged by SQLite's planner on an
 * in-memory copy of the schema: engine/advice.ts) and db_health (integrity, foreign keys, pages and
 * free pages: engine/health.ts). Both run on a read-only connection and change nothing.
 */
import { z } from '@refmcp/shared/schema';
import { defineTool, LOCAL_HINTS, structuredResult, type ToolDefinition } from '@refmcp/shared/server';
import type { Config } from '../config.js';
import type { HealthReport } from '../engine/protocol.js';
import { toToolError } from '../errors.js';
import { planFindings } from '../plan-findings.js';
import { visibleJson } from '../render.js';
import { bindings, budgetOf, namedParamsArg, paramsArg, sqlArg } from './schemas.js';

/** A free-page share at or above this suggests VACUUM (ours: the space is reused by later writes anyway). */
export const FREELIST_WARN = 0.25;

const visible = (text: string) => text.replace(/[\p{Cf}]/gu, (ch) => visibleJson(ch).slice(1, -1));

function size(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i ? Math.round(v * 10) / 10 : v} ${units[i]}`;
}

export function adviceTools(config: Config): ToolDefinition[] {
  const errorContext = {
    argument: 'query',
    allowWrites: config.allowWrites,
    busyTimeoutMs: config.busyTimeoutMs,
    readPath: true,
  };

  const indexAdvice = defineTool({
    name: 'index_advice',
    title: 'Index Advice',
    description:
      "Propose indexes for one statement from its plan (full scans, automatic indexes, temporary B-trees) and its WHERE/ON/ORDER BY columns; each is checked by SQLite's planner on an in-memory copy of the schema (used or not, plan after). Creates nothing.",
    inputSchema: z.strictObject({
      query: sqlArg('The statement, without EXPLAIN'),
      params: paramsArg,
      named_params: namedParamsArg,
    }),
    outputSchema: z.object({
      findings: z.array(z.object({ kind: z.string(), text: z.string() })),
      candidates: z.array(
        z.object({
          table: z.string(),
          columns: z.array(z.string()),
          reason: z.string(),
          ddl: z.string().describe('CREATE INDEX to give the operator; never run by this tool.'),
          used: z.boolean().nullable().describe("Whether SQLite's planner used it (null: not evaluated)."),
          planAfter: z.array(z.string()),
        }),
      ),
      notes: z.array(z.string()),
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal }) => {
      let result: Awaited<ReturnType<typeof config.pool.read>>;
      try {
        result = await config.pool.read(
          { op: 'advise', sql: args.query, params: bindings(args), budget: budgetOf(config) },
          signal,
        );
      } catch (error) {
        throw toToolError(error, errorContext);
      }
      if (result.op !== 'advise') throw new Error(`unexpected ${result.op} result`);
      const findings = planFindings(result.plan);
      const lines = [
        "Checked with SQLite's planner on an in-memory copy of the schema (as the sqlite3 shell's .expert does); nothing was created in the database.",
        `Plan now: ${result.plan.map((s) => s.detail).join('; ')}`,
      ];
      const used = result.candidates.filter((c) => c.used !== false);
      const unused = result.candidates.filter((c) => c.used === false);
      if (used.length)
        lines.push(
          'Candidate indexes:',
          ...used.map(
            (c) =>
              `- ${c.ddl}; -- ${c.reason}\n    ${c.used === null ? 'not evaluated' : `plan with it: ${c.planAfter.join('; ')}`}`,
          ),
        );
      else lines.push('No candidate index the planner would use.');
      if (unused.length)
        lines.push('Not used by the planner (not recommended):', ...unused.map((c) => `- ${c.ddl}`));
      if (result.notes.length) lines.push('Notes:', ...result.notes.map((n) => `- ${n}`));
      return structuredResult(
        { findings, candidates: result.candidates, notes: result.notes },
        visible(lines.join('\n')),
      );
    },
  });

  const dbHealth = defineTool({
    name: 'db_health',
    title: 'Database Health',
    description:
      'Check the database file: PRAGMA quick_check (full: integrity_check, slower), foreign key violations, page size and count, free pages, journal and auto-vacuum modes, largest tables and indexes. Read-only.',
    inputSchema: z.strictObject({
      full: z.boolean().optional().describe('Run integrity_check instead of quick_check'),
    }),
    outputSchema: z.object({
      status: z.enum(['ok', 'warning', 'critical']),
      check: z.string(),
      problems: z.array(z.string()),
      foreignKeyViolations: z.number(),
      foreignKeyTables: z.array(z.string()),
      pageSize: z.number(),
      pageCount: z.number(),
      freelistCount: z.number(),
      journalMode: z.string(),
      autoVacuum: z.string(),
      objects: z
        .array(z.object({ name: z.string(), pages: z.number(), bytes: z.number(), unused: z.number() }))
        .nullable(),
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal }) => {
      let report: HealthReport;
      try {
        const result = await config.pool.read({ op: 'health', full: args.full === true }, signal);
        if (result.op !== 'health') throw new Error(`unexpected ${result.op} result`);
        report = result.report;
      } catch (error) {
        throw toToolError(error, { ...errorContext, argument: 'database' });
      }
      const free = report.pageCount ? report.freelistCount / report.pageCount : 0;
      const status = report.problems.length
        ? 'critical'
        : report.foreignKeyViolations || free >= FREELIST_WARN
          ? 'warning'
          : 'ok';
      const lines = [
        `${status.toUpperCase()}: ${report.check} ${report.problems.length ? `found ${report.problems.length} problem(s)` : 'ok'}` +
          ' [any problem is corruption: sqlite.org/pragma.html#pragma_integrity_check]',
        ...report.problems.map((p) => `- ${p}`),
        `Foreign keys: ${report.foreignKeyViolations ? `${report.foreignKeyViolations}${report.foreignKeyViolations >= 1000 ? '+' : ''} row(s) violate (${report.foreignKeyTables.join(', ')})` : 'no violations'} [PRAGMA foreign_key_check]`,
        `Pages: ${report.pageCount} × ${report.pageSize} bytes = ${size(report.pageCount * report.pageSize)}; ` +
          `${report.freelistCount} free (${Math.round(free * 1000) / 10}%) [VACUUM suggested from ${FREELIST_WARN * 100}% free (ours); free pages are reused by later writes]`,
        `Journal mode ${report.journalMode}, auto_vacuum ${report.autoVacuum}.`,
      ];
      if (report.objects?.length)
        lines.push(
          'Largest tables and indexes (dbstat):',
          ...report.objects.map(
            (o) => `- ${o.name}: ${size(o.bytes)} in ${o.pages} pages, ${size(o.unused)} unused`,
          ),
        );
      return structuredResult({ status, ...report }, visible(lines.join('\n')));
    },
  });

  return [indexAdvice, dbHealth];
}
