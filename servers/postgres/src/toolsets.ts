/**
 * The PostgreSQL server's toolsets, declared once: `--toolsets`, `--help`, the README and the type
 * of every tool's `toolset` come from this list. The insight tools are off by default, so the
 * default tool list stays what the official server and most hosts need.
 */
import { defineToolsets, type ToolDefinition, type ToolsetName } from '@refmcp/shared';
import type { z } from '@refmcp/shared/schema';

export const TOOLSETS = defineToolsets([
  { name: 'sql', description: 'Run SQL: query (read-only) and execute (with --allow-writes)', default: true },
  { name: 'schema', description: 'Schemas, tables, a table described, a query plan', default: true },
  {
    name: 'insight',
    description: 'Top queries, plan analysis, index advice and health checks (read-only)',
    default: false,
  },
]);

/** "sql" | "schema" | "insight". */
export type PostgresToolset = ToolsetName<typeof TOOLSETS>;

/** A PostgreSQL tool: its `toolset` is one of {@link TOOLSETS}. */
export type PostgresTool = ToolDefinition<z.ZodObject, z.ZodObject, PostgresToolset>;
