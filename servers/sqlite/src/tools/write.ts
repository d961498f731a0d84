/**
 * Writing tools, served only with --allow-writes (and never with --read-only): write_query and
 * create_table. They run on the one write engine; each call is its own transaction. A schema change
 * tells the client that the resource list (one schema resource per table) changed.
 */
import { z } from '@refmcp/shared/schema';
import {
  defineTool,
  LOCAL_HINTS,
  structuredResult,
  type ToolContext,
  type ToolDefinition,
  withHeartbeat,
} from '@refmcp/shared/server';
import type { Config } from '../config.js';
import type { Params, WriteResult } from '../engine/protocol.js';
import { toToolError } from '../errors.js';
import { renderRows } from '../render.js';
import {
  bindings,
  budgetOf,
  namedParamsArg,
  paramsArg,
  rowsShape,
  sqlArg,
  VALUE_ENCODING,
} from './schemas.js';

const writeOutput = z.object({
  changes: z.number().describe('Rows inserted, updated or deleted by the statement.'),
  lastInsertRowid: z
    .union([z.number(), z.string()])
    .describe('Rowid of the last row inserted on this connection (a string beyond ±2^53).'),
  schemaChanged: z.boolean().describe('The statement created, altered or dropped schema objects.'),
  returning: z.object(rowsShape).optional().describe('Rows of a RETURNING clause (first page).'),
});

function describeWrite(result: WriteResult): string {
  const lines = [
    `Done: ${result.changes} row(s) changed; last inserted rowid ${result.lastInsertRowid}` +
      `${result.schemaChanged ? '; the schema changed' : ''}.`,
  ];
  if (result.returning) lines.push(renderRows(result.returning, 0));
  return lines.join('\n');
}

export function writeTools(config: Config): ToolDefinition[] {
  const errorContext = {
    argument: 'query',
    allowWrites: config.allowWrites,
    busyTimeoutMs: config.busyTimeoutMs,
    readPath: false,
  };

  const run = async (sql: string, params: Params | undefined, createTableOnly: boolean, ctx: ToolContext) => {
    let result: WriteResult;
    try {
      const reply = await withHeartbeat(
        ctx.progress,
        config.pool.write(
          { op: 'write', sql, params, createTableOnly, budget: budgetOf(config) },
          ctx.signal,
        ),
        (s) => `statement running, ${s} s`,
      );
      if (reply.op !== 'write') throw new Error(`unexpected ${reply.op} result`);
      result = reply.result;
    } catch (error) {
      throw toToolError(error, errorContext);
    }
    if (result.schemaChanged) ctx.server.sendResourceListChanged();
    const structured = {
      changes: result.changes,
      lastInsertRowid: result.lastInsertRowid,
      schemaChanged: result.schemaChanged,
      ...(result.returning
        ? {
            returning: {
              ...result.returning,
              rowCount: result.returning.rows.length,
              valueEncoding: VALUE_ENCODING,
            },
          }
        : {}),
    };
    return structuredResult(structured, describeWrite(result));
  };

  const writeQuery = defineTool({
    name: 'write_query',
    title: 'Write Query',
    description:
      'Run one SQL statement that changes the database (INSERT, UPDATE, DELETE, REPLACE, CREATE INDEX, ALTER, DROP), ' +
      'committed when it succeeds; returns the rows changed and any RETURNING rows. Reads, ATTACH, transaction ' +
      `control and TEMP objects are refused. Stopped after ${config.statementTimeoutMs} ms.`,
    inputSchema: z.strictObject({
      query: sqlArg('One SQL statement that changes data, e.g. UPDATE users SET name = ? WHERE id = ?'),
      params: paramsArg,
      named_params: namedParamsArg,
    }),
    outputSchema: writeOutput,
    annotations: LOCAL_HINTS.destructive,
    handler: (args, ctx) => run(args.query, bindings(args), false, ctx),
  });

  const createTable = defineTool({
    name: 'create_table',
    title: 'Create Table',
    description:
      'Create a table with one CREATE TABLE statement (CREATE TABLE [IF NOT EXISTS] …, CREATE TABLE … AS SELECT, or ' +
      'CREATE VIRTUAL TABLE … USING fts5/rtree). Any other statement is refused: use write_query for indexes and ' +
      'data. Temporary tables are refused (they would live hidden on the writer connection).',
    inputSchema: z.strictObject({
      query: sqlArg(
        'The CREATE TABLE statement, e.g. CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)',
      ),
    }),
    outputSchema: writeOutput,
    annotations: LOCAL_HINTS.additive,
    handler: (args, ctx) => run(args.query, undefined, true, ctx),
  });

  return [writeQuery, createTable];
}
