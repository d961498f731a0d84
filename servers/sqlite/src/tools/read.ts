/**
 * Reading tools: read_query (bounded pages with a cursor) and explain_query (the query plan). Both
 * run on a read-only connection (SQLITE_OPEN_READONLY + PRAGMA query_only) in an engine process.
 */
import { cursorString, z } from '@refmcp/shared/schema';
import {
  defineTool,
  LOCAL_HINTS,
  makeCursor,
  queryKey,
  readCursor,
  structuredResult,
  type ToolDefinition,
  ToolError,
  withHeartbeat,
} from '@refmcp/shared/server';
import type { Config } from '../config.js';
import type { PlanStep, RowsResult } from '../engine/protocol.js';
import { toToolError } from '../errors.js';
import { planFindings } from '../plan-findings.js';
import { renderRows, visibleJson } from '../render.js';
import {
  bindings,
  budgetOf,
  namedParamsArg,
  paramsArg,
  rowsShape,
  SAME_QUERY,
  sqlArg,
  VALUE_ENCODING,
} from './schemas.js';

/** One sentence on what this server may do, for tool descriptions. */
export function modeSentence(config: Config): string {
  return config.allowWrites
    ? 'Writes are enabled on this server (write_query, create_table); read_query itself still never writes.'
    : 'This server is read-only.';
}

/** The plan as an indented tree, like the sqlite3 shell's EXPLAIN QUERY PLAN output. */
export function renderPlan(plan: PlanStep[]): string {
  const lines = ['QUERY PLAN'];
  const walk = (parent: number, prefix: string) => {
    const children = plan.filter((s) => s.parent === parent);
    children.forEach((step, i) => {
      const last = i === children.length - 1;
      lines.push(`${prefix}${last ? '`--' : '|--'}${step.detail}`);
      if (step.id !== parent) walk(step.id, `${prefix}${last ? '   ' : '|  '}`);
    });
  };
  walk(0, '');
  return lines.join('\n');
}

export function readTools(config: Config): ToolDefinition[] {
  const errorContext = {
    argument: 'query',
    allowWrites: config.allowWrites,
    busyTimeoutMs: config.busyTimeoutMs,
    readPath: true,
  };

  const readQuery = defineTool({
    name: 'read_query',
    title: 'Read Query',
    description:
      'Run one SQL statement that reads (SELECT, WITH, VALUES, a reporting PRAGMA) on a read-only connection, ' +
      `stopped after ${config.statementTimeoutMs} ms. At most ${config.maxRows} rows and ${config.maxBytes} bytes a ` +
      'call; when truncated, call again with the same query and params and the returned nextCursor as cursor ' +
      '(ORDER BY keeps pages stable). Integers beyond 2^53 come as strings, BLOBs as {"base64": …}. ' +
      modeSentence(config),
    inputSchema: z.strictObject({
      query: sqlArg('e.g. SELECT name FROM users WHERE id = ?'),
      params: paramsArg,
      named_params: namedParamsArg,
      cursor: cursorString().optional(),
    }),
    outputSchema: z.object({
      ...rowsShape,
      offset: z.number().describe('Rows before this page.'),
      nextCursor: z
        .string()
        .optional()
        .describe('Pass back as cursor (same query and params) for the next page.'),
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal, progress }) => {
      const params = bindings(args);
      const key = queryKey('read_query', [args.query, params ?? null]);
      const offset = Number(readCursor<{ o?: unknown }>(args.cursor, key, SAME_QUERY)?.o ?? 0);
      if (!Number.isSafeInteger(offset) || offset < 0) {
        throw new ToolError('cursor: not a cursor this server issued; pass the exact nextCursor value');
      }
      let page: RowsResult;
      try {
        const result = await withHeartbeat(
          progress,
          config.pool.read(
            { op: 'query', sql: args.query, params, offset, budget: budgetOf(config) },
            signal,
          ),
          (s) => `query running, ${s} s`,
        );
        if (result.op !== 'query') throw new Error(`unexpected ${result.op} result`);
        page = result.page;
      } catch (error) {
        throw toToolError(error, errorContext);
      }
      const nextCursor = page.truncated ? makeCursor(key, { o: offset + page.rows.length }) : undefined;
      return structuredResult(
        {
          columns: page.columns,
          rows: page.rows,
          rowCount: page.rows.length,
          truncated: page.truncated,
          storageClasses: page.storageClasses,
          valueEncoding: VALUE_ENCODING,
          offset,
          ...(nextCursor ? { nextCursor } : {}),
        },
        renderRows(page, offset, nextCursor ? { tool: 'read_query', nextCursor } : undefined),
      );
    },
  });

  const explainQuery = defineTool({
    name: 'explain_query',
    title: 'Explain Query Plan',
    description:
      "Show SQLite's query plan (EXPLAIN QUERY PLAN) for one read or write without running it, with findings: " +
      'full scans, automatic indexes, temporary B-trees, correlated subqueries.',
    inputSchema: z.strictObject({
      query: sqlArg('The statement, without EXPLAIN'),
      params: paramsArg,
      named_params: namedParamsArg,
    }),
    outputSchema: z.object({
      plan: z.array(z.object({ id: z.number(), parent: z.number(), detail: z.string() })),
      findings: z.array(z.object({ kind: z.string(), text: z.string() })),
      truncated: z.boolean(),
    }),
    annotations: LOCAL_HINTS.readOnly,
    handler: async (args, { signal }) => {
      let plan: PlanStep[];
      let truncated: boolean;
      try {
        const result = await config.pool.read(
          { op: 'explain', sql: args.query, params: bindings(args), budget: budgetOf(config) },
          signal,
        );
        if (result.op !== 'explain') throw new Error(`unexpected ${result.op} result`);
        ({ plan, truncated } = result);
      } catch (error) {
        throw toToolError(error, errorContext);
      }
      // Plan details quote identifiers from the schema: escape format characters in the text view.
      const findings = planFindings(plan);
      const lines = [
        renderPlan(plan),
        ...(findings.length ? ['Findings:', ...findings.map((f) => `- ${f.text}`)] : []),
      ];
      const text = lines.join('\n').replace(/[\p{Cf}]/gu, (ch) => visibleJson(ch).slice(1, -1));
      return structuredResult(
        { plan, findings, truncated },
        truncated ? `${text}\n[truncated: plan cut]` : text,
      );
    },
  });

  return [readQuery, explainQuery];
}
