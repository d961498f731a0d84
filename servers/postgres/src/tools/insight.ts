/**
 * The insight toolset (off by default: --toolsets all or --toolsets sql,schema,insight):
 * top_queries (pg_stat_statements), analyze_query (a plan read for a model), index_advice
 * (candidate indexes, HypoPG or estimates; existing index problems) and db_health (checks with
 * thresholds and their sources). All read-only in every mode: catalog and statistics reads and
 * EXPLAIN in READ ONLY transactions; nothing is created, altered, analysed or reset.
 */
import { cursorString, z } from '@refmcp/shared/schema';
import { defineTool, LOCAL_HINTS, ToolError, truncationMarker } from '@refmcp/shared/server';
import { block, neutralizedField, respond, UntrustedText } from '@refmcp/shared/untrusted';
import type { Config } from '../config.js';
import {
  type Advice,
  adviceLine,
  hypopgSchema,
  planOf,
  statementAdvice,
  workloadAdvice,
} from '../insight/advice.js';
import { compactStatement } from '../insight/compact.js';
import { CHECKS, runChecks } from '../insight/health.js';
import { indexProblems } from '../insight/indexes.js';
import { num, seconds, table } from '../insight/listing.js';
import { formatBytes, planFindings, planRoot, planTree } from '../insight/plan.js';
import { planRelations, sizesOf } from '../insight/relations.js';
import { ORDERS, type StatementOrder, statementsSource, topStatements } from '../insight/statements.js';
import { loadParser } from '../parser.js';
import { explain, guard, inspect, type Statement } from '../run.js';
import type { PostgresTool } from '../toolsets.js';
import { paramsArg, sqlArg } from './query.js';

/** Statement text shown per query after compaction, in characters (the whole text: by queryid). */
const QUERY_TEXT_CHARS = 200;
/** Statements of the workload planned by index_advice without sql. */
const WORKLOAD_STATEMENTS = 20;
/** Health checks whose items quote other sessions' statements. */
const SESSION_CHECKS = new Set(['long_running', 'idle_in_transaction', 'blocking_locks']);
/** Health checks whose items repeat their summary with more detail. */
const ITEMS_REPEAT_SUMMARY = new Set(['vacuum', 'bloat', 'sequences']);
/** An ok check's summary that says only that nothing was found: its name stands for it. */
const NOTHING_FOUND = /^(none|every table within)/;
/** Candidates evaluated per call. */
const MAX_CANDIDATES = 8;

const round = (n: number) => (Math.abs(n) >= 100 ? Math.round(n) : Math.round(n * 100) / 100);

function adviceOutput() {
  return z.object({
    ddl: z.string().describe('CREATE INDEX to give a DBA; never run by this server.'),
    table: z.string(),
    columns: z.array(z.string()),
    reason: z.string(),
    method: z.enum(['hypopg', 'estimate']),
    costBefore: z.number().describe('Plan total cost (planner units) without the index.'),
    costAfter: z.number().optional().describe('HypoPG: plan total cost with the hypothetical index.'),
    used: z.boolean().optional().describe('HypoPG: whether the planner used it.'),
    nodeCost: z.number().optional().describe('Estimate: cost of the plan node the index would serve.'),
    node: z.string().optional(),
    queries: z.array(z.string()).optional().describe('queryid of the statements it serves.'),
    workloadMs: z.number().optional(),
  });
}

export function insightTools(config: Config): PostgresTool[] {
  const topQueries = defineTool({
    name: 'top_queries',
    title: 'Top queries (pg_stat_statements)',
    toolset: 'insight',
    description:
      "This database's most expensive statements from pg_stat_statements, normalised ($1 for constants), by " +
      'total_time (default), mean_time, calls, rows or shared_blks_read, with when statistics were reset. Says what ' +
      'to enable when the extension is missing. Paged: follow nextCursor. Read-only.',
    inputSchema: z.strictObject({
      orderBy: z.enum(Object.keys(ORDERS) as [StatementOrder, ...StatementOrder[]]).optional(),
      limit: z.number().int().min(1).max(50).optional().describe('Statements per page (default 10)'),
      cursor: cursorString().optional(),
    }),
    outputSchema: z.object({
      installed: z.boolean(),
      statsReset: z.string().nullable().optional(),
      queries: z.array(
        z.object({
          queryid: z.string(),
          query: z.string(),
          calls: z.number(),
          total_ms: z.number(),
          mean_ms: z.number(),
          rows: z.number(),
          shared_blks_read: z
            .number()
            .optional()
            .describe('Omitted when 0, as are shared_blks_hit and temp_blks_written.'),
          shared_blks_hit: z.number().optional(),
          temp_blks_written: z.number().optional(),
          cut: z
            .boolean()
            .optional()
            .describe('query shortened (… marks what was left out); read it whole by queryid'),
        }),
      ),
      nextCursor: z.string().optional(),
      ...neutralizedField,
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal }) => {
      const order = args.orderBy ?? 'total_time';
      const limit = args.limit ?? 10;
      let offset = 0;
      if (args.cursor) {
        // `<orderBy>:<offset>`: short, since a model reads it in the text.
        const [o, n] = args.cursor.split(':');
        if (o !== order || !/^\d{1,6}$/.test(n ?? ''))
          throw new ToolError(
            'cursor: not a top_queries cursor for this orderBy; pass nextCursor from the previous call',
          );
        offset = Number(n);
      }
      const result = await inspect(config, 'top_queries', signal, async (query) => {
        const source = await statementsSource(query);
        if (!source.ok) return source.message;
        return topStatements(query, source, { order, limit, offset, minCalls: 1 });
      });
      if (typeof result === 'string') return respond({ installed: false, queries: [] }, [result]);
      const untrusted = new UntrustedText();
      const parser = await loadParser();
      let cut = false;
      const page = result.rows.slice(0, limit).map((r) => {
        const shown = compactStatement(parser, r.query, QUERY_TEXT_CHARS);
        cut ||= shown.cut;
        // Zero block counts are left out (the schema marks them optional).
        const { shared_blks_read, shared_blks_hit, temp_blks_written, ...rest } = r;
        return {
          ...rest,
          query: untrusted.code(shown.text),
          ...(shared_blks_read ? { shared_blks_read } : {}),
          ...(shared_blks_hit ? { shared_blks_hit } : {}),
          ...(temp_blks_written ? { temp_blks_written } : {}),
          ...(shown.cut ? { cut: true } : {}),
        };
      });
      const nextCursor = result.rows.length > limit ? `${order}:${offset + limit}` : undefined;
      // Block columns only when some statement read from disk or wrote temp blocks.
      const reads = page.some((r) => r.shared_blks_read);
      const temp = page.some((r) => r.temp_blks_written);
      const header = [
        'total ms',
        'mean ms',
        'calls',
        'rows',
        ...(reads ? ['blks read', 'cached %'] : []),
        ...(temp ? ['temp blks'] : []),
        'query',
      ];
      const cells = page.map((r) => {
        const read = r.shared_blks_read ?? 0;
        const hit = r.shared_blks_hit ?? 0;
        return [
          num(r.total_ms),
          num(r.mean_ms),
          r.calls,
          r.rows,
          ...(reads ? [read, read + hit ? Math.round((hit / (read + hit)) * 100) : '-'] : []),
          ...(temp ? [r.temp_blks_written ?? 0] : []),
          // The queryid reads the whole text from pg_stat_statements when it was cut.
          r.cut ? `${r.query} [queryid ${r.queryid}]` : r.query,
        ];
      });
      const lines = [
        `pg_stat_statements by ${order}: ${page.length ? `${offset + 1}-${offset + page.length}` : 0} of ${result.total}, since ${seconds(result.reset)}.` +
          (cut ? ' … = left out (whole text by queryid).' : ''),
      ];
      if (page.length) lines.push(block('pg_stat_statements', table(header, cells)));
      else lines.push('(no statements recorded)');
      if (nextCursor)
        lines.push(
          truncationMarker(`${result.total - offset - page.length} more`, `pass cursor="${nextCursor}"`),
        );
      return respond(
        { installed: true, statsReset: result.reset, queries: page, ...(nextCursor ? { nextCursor } : {}) },
        lines,
        untrusted,
      );
    },
  });

  const analyzeQuery = defineTool({
    name: 'analyze_query',
    title: 'Analyze a query plan',
    toolset: 'insight',
    description:
      "Read PostgreSQL's plan for one read-only statement for you: the costliest nodes, row estimates ≥10× off, " +
      'sequential scans of large tables, sorts and hashes spilled to disk, with numbers, and a compact plan tree. ' +
      `analyze: true runs it (EXPLAIN ANALYZE, BUFFERS) in a READ ONLY transaction rolled back, within ${config.statementTimeoutMs} ms. Read-only.`,
    inputSchema: z.strictObject({
      sql: sqlArg('The statement, without EXPLAIN'),
      params: paramsArg,
      analyze: z.boolean().optional().describe('Also run it, for actual rows, times and spills'),
    }),
    outputSchema: z.object({
      findings: z.array(z.object({ kind: z.string(), text: z.string() })),
      totalCost: z.number(),
      executionMs: z.number().optional(),
      tree: z.string(),
      ...neutralizedField,
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal }) => {
      const statement: Statement = { sql: args.sql, params: args.params ?? [] };
      const value = await explain(config, statement, {
        analyze: args.analyze === true,
        verbose: true,
        tool: 'analyze_query',
        readOnlyTool: true,
        signal,
      });
      const root = planRoot(value);
      if (!root) throw new ToolError('EXPLAIN returned no plan for this statement');
      const relations = await inspect(config, 'analyze_query', signal, (query) =>
        planRelations(query, [root]),
      );
      // Object names in plans are the database's (any role that can create a table names them):
      // neutralised, and the listing is labelled as data once.
      const untrusted = new UntrustedText();
      const findings = planFindings(root, sizesOf(relations)).map((f) => ({
        ...f,
        text: untrusted.code(f.text),
      }));
      const tree = untrusted.code(planTree(root));
      const total = Number(root.Plan['Total Cost'] ?? 0);
      const head = `Plan cost ${round(total)}${root['Execution Time'] !== undefined ? `, executed in ${round(root['Execution Time'])} ms` : ' (estimates only: analyze: true adds actual rows, times and spills)'}.`;
      const listing = [
        ...(findings.length ? findings.map((f) => `- ${f.kind}: ${f.text}`) : ['- nothing notable']),
        'Plan:',
        tree,
      ];
      const lines = [
        head,
        block('plan', listing.join('\n')),
        ...(findings.some((f) => f.kind === 'seq scan' && f.text.includes(' by Filter '))
          ? ['index_advice with this sql proposes indexes for these scans.']
          : []),
      ];
      return respond(
        {
          findings,
          totalCost: total,
          ...(root['Execution Time'] !== undefined ? { executionMs: root['Execution Time'] } : {}),
          tree,
        },
        lines,
        untrusted,
      );
    },
  });

  const indexAdvice = defineTool({
    name: 'index_advice',
    title: 'Index advice',
    toolset: 'insight',
    description:
      'Propose indexes from plans: for sql, that statement; without it, the top statements of pg_stat_statements ' +
      '(PostgreSQL 16+, GENERIC_PLAN). Each candidate is measured with HypoPG hypothetical indexes when that extension ' +
      "is installed (cost before/after), else by the plan's own estimates (says which). Without sql also lists " +
      'invalid, unused and duplicate indexes with sizes. Creates nothing. Read-only.',
    inputSchema: z.strictObject({
      sql: sqlArg('One read-only statement, without EXPLAIN (default: the top statements)').optional(),
      params: paramsArg,
    }),
    outputSchema: z.object({
      method: z.enum(['hypopg', 'estimate']),
      advice: z.array(adviceOutput()),
      notProposed: z
        .array(z.string())
        .describe(
          'Candidates left out: an index already leads with them, or the filter keeps too many rows.',
        ),
      skipped: z.array(z.string()).optional(),
      existing: z
        .array(
          z.object({
            kind: z.enum(['invalid', 'unused', 'duplicate']),
            index: z.string(),
            table: z.string(),
            bytes: z.number(),
            detail: z.string(),
          }),
        )
        .optional(),
      ...neutralizedField,
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal }) => {
      if (args.sql !== undefined) {
        const statement: Statement = { sql: args.sql, params: args.params ?? [] };
        const { planLock } = await guard(config, statement.sql, 'index_advice', true);
        if (planLock)
          throw new ToolError(
            `refused before it reached the database: index_advice plans only reads (planning ${planLock} takes its table locks); give it the SELECT part`,
          );
        const result = await inspect(config, 'index_advice', signal, async (query) => {
          const hypopg = await hypopgSchema(query);
          const plan = await planOf(query, statement, false);
          const relations = await planRelations(query, [plan]);
          const { advice, covered } = await statementAdvice(query, statement, plan, relations, {
            hypopg,
            generic: false,
            max: MAX_CANDIDATES,
          });
          return { hypopg, advice, covered };
        });
        return adviceResult(result.hypopg ? 'hypopg' : 'estimate', result.advice, result.covered);
      }
      const result = await inspect(config, 'index_advice', signal, async (query) => {
        const hypopg = await hypopgSchema(query);
        const existing = await indexProblems(query);
        const source = await statementsSource(query);
        const skipped: string[] = [];
        if (!source.ok) return { hypopg, existing, advice: [], covered: [], skipped: [source.message] };
        if (source.serverVersion < 160000)
          return {
            hypopg,
            existing,
            advice: [],
            covered: [],
            skipped: [
              'workload advice needs PostgreSQL 16+ (EXPLAIN GENERIC_PLAN); pass sql for one statement',
            ],
          };
        const top = await topStatements(query, source, {
          order: 'total_time',
          limit: WORKLOAD_STATEMENTS,
          offset: 0,
          minCalls: 1,
        });
        const planned = [];
        for (const row of top.rows.slice(0, WORKLOAD_STATEMENTS)) {
          const statement = { sql: row.query, params: [] };
          try {
            const checked = await guard(config, row.query, 'index_advice', true);
            if (checked.kind !== 'SelectStmt' || checked.planLock) {
              skipped.push(`queryid ${row.queryid}: not a plain SELECT`);
              continue;
            }
          } catch (error) {
            skipped.push(`queryid ${row.queryid}: ${(error as Error).message.slice(0, 120)}`);
            continue;
          }
          await query('SAVEPOINT refmcp_plan');
          try {
            const plan = await planOf(query, statement, true);
            await query('RELEASE SAVEPOINT refmcp_plan');
            planned.push({ queryid: row.queryid, statement, plan, totalMs: row.total_ms });
          } catch (error) {
            await query('ROLLBACK TO SAVEPOINT refmcp_plan');
            skipped.push(
              `queryid ${row.queryid}: could not be planned (${(error as Error).message.slice(0, 200)})`,
            );
          }
        }
        const relations = await planRelations(
          query,
          planned.map((p) => p.plan),
        );
        const { advice, covered } = await workloadAdvice(query, planned, relations, {
          hypopg,
          max: MAX_CANDIDATES,
        });
        return { hypopg, existing, advice, covered, skipped };
      });
      return adviceResult(
        result.hypopg ? 'hypopg' : 'estimate',
        result.advice,
        result.covered,
        result.skipped,
        result.existing,
      );
    },
  });

  const dbHealth = defineTool({
    name: 'db_health',
    title: 'Database health',
    toolset: 'insight',
    description:
      `Health checks, each with status, numbers, threshold and its source: ${CHECKS.join(', ')}. ` +
      'Thresholds and items are shown for checks that are not ok. Other sessions show fully only to a role with pg_monitor. Read-only.',
    inputSchema: z.strictObject({
      checks: z.array(z.enum(CHECKS)).min(1).optional().describe('Only these checks (default: all)'),
    }),
    outputSchema: z.object({
      checks: z.array(
        z.object({
          check: z.string(),
          status: z.enum(['ok', 'warning', 'critical', 'unknown']),
          summary: z.string(),
          items: z.array(z.string()),
          threshold: z.string(),
          source: z.string(),
        }),
      ),
      ...neutralizedField,
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal }) => {
      const untrusted = new UntrustedText();
      const clean = (text: string | null) =>
        untrusted.code(text ?? '', 200, 'see pg_stat_activity').replace(/\s+/g, ' ');
      // Items name database objects, roles and sessions' statements: all are the database's text
      // (statements are cleaned as they are read; the rest here), labelled as data below.
      const checks = (
        await inspect(config, 'db_health', signal, (query) =>
          runChecks(query, args.checks ? [...new Set(args.checks)] : CHECKS, clean),
        )
      ).map((c) =>
        SESSION_CHECKS.has(c.check) ? c : { ...c, items: c.items.map((i) => untrusted.code(i)) },
      );
      // Text: checks that are ok share one line (those that found nothing by name alone); a check
      // that is not ok has a line with its threshold and source, and its items follow in one
      // labelled block, each named by its check (structuredContent carries every field).
      const fine = checks.filter((c) => c.status === 'ok');
      const quiet = fine.filter((c) => NOTHING_FOUND.test(c.summary)).map((c) => c.check);
      const said = fine.filter((c) => !NOTHING_FOUND.test(c.summary)).map((c) => `${c.check} ${c.summary}`);
      const lines = fine.length ? [`OK: ${[quiet.join(', '), ...said].filter(Boolean).join('; ')}`] : [];
      const items: string[] = [];
      for (const c of checks) {
        if (c.status === 'ok') continue;
        // Where the items say what the summary says, the text gives the items alone.
        const summary = c.items.length && ITEMS_REPEAT_SUMMARY.has(c.check) ? '' : ` ${c.summary}`;
        lines.push(
          `${c.status.toUpperCase()} ${c.check}${c.threshold ? ` [${c.threshold}; ${c.source}]` : ''}${summary ? `:${summary}` : ''}`,
        );
        items.push(...c.items.map((i) => `${c.check} ${i}`));
      }
      if (items.length) {
        const sessions = checks.some(
          (c) => c.status !== 'ok' && c.items.length && SESSION_CHECKS.has(c.check),
        );
        lines.push(block(sessions ? 'catalog, pg_stat_activity' : 'catalog', items.join('\n')));
      }
      const quoted = items.length > 0;
      return respond({ checks }, lines, quoted ? untrusted : undefined);
    },
  });

  return [topQueries, analyzeQuery, indexAdvice, dbHealth];
}

function adviceResult(
  method: 'hypopg' | 'estimate',
  found: Advice[],
  notes: string[],
  skippedIn?: string[],
  existing?: {
    problems: {
      kind: 'invalid' | 'unused' | 'duplicate';
      index: string;
      table: string;
      bytes: number;
      detail: string;
    }[];
    statsSince: string | null;
  },
) {
  // Object names (tables, columns, indexes) are the database's: any role that can create a table
  // names them. Each is neutralised, and the whole listing is labelled as data once.
  const untrusted = new UntrustedText();
  const c = (text: string) => untrusted.code(text);
  const advice = found.map((a) => ({
    ...a,
    ddl: c(a.ddl),
    table: c(a.table),
    columns: a.columns.map(c),
    reason: c(a.reason),
    ...(a.node !== undefined ? { node: c(a.node) } : {}),
  }));
  const covered = notes.map(c);
  const skipped = skippedIn?.map(c);
  const problems = existing?.problems.map((p) => ({
    ...p,
    index: c(p.index),
    table: c(p.table),
    detail: c(p.detail),
  }));
  const lines = [
    method === 'hypopg'
      ? 'Evaluated with HypoPG hypothetical indexes (planner cost before → after; nothing created).'
      : "By the plan's own estimates (HypoPG is not installed): a node's cost is the most an index there saves, not measured.",
  ];
  const listing: string[] = [];
  // Section names only where there is more than one section.
  const sections = [advice.length, covered.length, skipped?.length, problems?.length].filter(Boolean).length;
  if (advice.length)
    listing.push(...(sections > 1 ? ['Candidate indexes:'] : []), ...advice.map((a) => `- ${adviceLine(a)}`));
  else
    lines.push(
      'No candidate index: no sequential scan of a large table (≥10000 rows) with an indexable filter, join or sort.',
    );
  if (covered.length) listing.push('Not proposed:', ...covered.map((n) => `- ${n}`));
  if (skipped?.length)
    listing.push(
      ...(skipped.length <= 2
        ? skipped.map((s) => `Not analysed: ${s}`)
        : [`${skipped.length} top statements not analysed (not plain SELECTs, or refused); see skipped.`]),
    );
  const after: string[] = [];
  if (problems) {
    // One line per index: an index both unused and duplicate is listed once with both problems.
    const byIndex = new Map<string, { table: string; bytes: number; problems: string[] }>();
    for (const p of problems) {
      const entry = byIndex.get(p.index) ?? { table: p.table, bytes: p.bytes, problems: [] };
      entry.problems.push(`${p.kind}: ${p.detail}`);
      byIndex.set(p.index, entry);
    }
    const shown = [...byIndex].slice(0, 30);
    if (shown.length)
      listing.push(
        `Existing indexes to review:\n${table(
          ['index', 'table', 'size', 'problem'],
          // The table without the schema when the index's schema names it already.
          shown.map(([index, e]) => [
            index,
            e.table.startsWith(index.slice(0, index.lastIndexOf('.') + 1)) && index.includes('.')
              ? e.table.slice(index.lastIndexOf('.') + 1)
              : e.table,
            formatBytes(e.bytes),
            e.problems.join('; '),
          ]),
        )}`,
      );
    else after.push('Existing indexes: none invalid, unused or duplicate.');
    if (byIndex.size > shown.length) after.push(`… ${byIndex.size - shown.length} more`);
  }
  if (listing.length) lines.push(block('catalog', listing.join('\n')));
  lines.push(...after);
  return respond(
    {
      method,
      advice,
      notProposed: covered,
      ...(skipped ? { skipped } : {}),
      ...(problems ? { existing: problems.slice(0, 30) } : {}),
    },
    lines,
    untrusted,
  );
}
