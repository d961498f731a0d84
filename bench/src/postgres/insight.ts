/**
 * The PostgreSQL insight rows (`--only pginsight`, issue 33): the bytes a model reads from our
 * insight tools (top_queries, index_advice, db_health) against Postgres MCP Pro
 * (crystaldba/postgres-mcp) on the same seeded database (servers/postgres/test/insight-seed.ts),
 * in one run; goal ≤ 0.5× in text bytes. Postgres MCP Pro is a PyPI package that cannot be
 * installed here, so its answers are rebuilt from its published source at commit 07eb329 (peer.ts):
 * its own SQL run on this database and its own formatting. Text and text + structuredContent are
 * reported apart: a host gives the model one or the other, or both.
 */
import type { CallToolResult } from '@modelcontextprotocol/client';
import {
  type InsightCluster,
  queryRows,
  runWorkload,
  SLOW_BY_CUSTOMER,
  startInsightCluster,
} from '../../../servers/postgres/test/insight-seed.js';
import { type Answer, row } from '../report.js';
import { resultText, Session } from '../servers.js';
import { type Context, callOk, preview, type WorkloadResult } from '../workloads/common.js';
import { theirHealth, theirIndexAdvice, theirTopQueries } from './peer.js';
import { locatePostgresServers } from './servers.js';

const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * Statements an application adds to the seeded workload (insight-seed.ts has three), written as
 * ORMs write them: quoted, qualified column lists, so that ten statements are there to list.
 */
const APP_STATEMENTS = [
  `SELECT "orders"."id", "orders"."customer_id", "orders"."status", "orders"."created_at", "orders"."amount" FROM "orders" WHERE "orders"."status" = 'paid' AND "orders"."created_at" >= '2024-01-05' ORDER BY "orders"."created_at" DESC LIMIT 50 OFFSET 0`,
  `SELECT "customers"."id", "customers"."name", "customers"."region", COUNT("orders"."id") AS "order_count", SUM("orders"."amount") AS "total_amount" FROM "customers" LEFT OUTER JOIN "orders" ON ("customers"."id" = "orders"."customer_id") WHERE "customers"."region" = 'north' GROUP BY "customers"."id", "customers"."name", "customers"."region" ORDER BY "total_amount" DESC NULLS LAST LIMIT 20`,
  'SELECT count(*) FROM orders WHERE amount > 1000',
  "SELECT date_trunc('day', created_at) AS day, status, count(*), sum(amount) FROM orders WHERE created_at BETWEEN '2024-01-01' AND '2024-02-01' GROUP BY 1, 2 ORDER BY 1, 2",
  'SELECT o.id, o.amount, c.name FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.id = 42',
  'WITH ranked AS (SELECT customer_id, amount, row_number() OVER (PARTITION BY customer_id ORDER BY amount DESC) AS rn FROM orders) SELECT customer_id, amount FROM ranked WHERE rn = 1 AND customer_id < 100',
  `SELECT "customers".* FROM "customers" WHERE "customers"."name" ILIKE '%er 12%' ORDER BY "customers"."id" ASC LIMIT 25`,
];

interface Case {
  name: string;
  tool: string;
  args: Record<string, unknown>;
  /** Their answer, built after the workload ran, just before ours is asked; their top statements' queryids. */
  theirs: (url: string) => Promise<{ text: string; queryids?: string[] }>;
  /** Whether the byte goal applies: their answer does the same work. */
  goal: boolean;
}

const CASES: Case[] = [
  ...([3, 10] as const).flatMap((limit) =>
    (['total_time', 'mean_time'] as const).map(
      (orderBy): Case => ({
        name: `top_queries ${orderBy} ×${limit}`,
        tool: 'top_queries',
        args: { orderBy, limit },
        theirs: (url) => theirTopQueries(url, orderBy, limit),
        goal: true,
      }),
    ),
  ),
  {
    name: 'index_advice for one statement',
    tool: 'index_advice',
    args: { sql: SLOW_BY_CUSTOMER, params: ['3'] },
    theirs: async () => ({ text: theirIndexAdvice() }),
    goal: false,
  },
  {
    name: 'index_advice for the workload',
    tool: 'index_advice',
    args: {},
    theirs: async () => ({ text: theirIndexAdvice() }),
    goal: false,
  },
  {
    name: 'db_health (all checks)',
    tool: 'db_health',
    args: {},
    theirs: async (url) => ({ text: await theirHealth(url) }),
    goal: true,
  },
];

export async function runPostgresInsightSuite(ctx: Context): Promise<WorkloadResult> {
  const ours = locatePostgresServers().ours;
  if (ours.missing) throw new Error(`our postgres server is ${ours.missing}`);
  const timeout = ctx.sizes.callTimeoutMs;
  ctx.log('pginsight: embedded PostgreSQL with pg_stat_statements, seeding');
  let cluster: InsightCluster | undefined;
  let session: Session | undefined;
  const rows = [];
  const answers: Answer[] = [];
  const notes: string[] = [];
  try {
    cluster = await startInsightCluster({ preload: true });
    session = await Session.start(ours, [cluster.url, '--toolsets', 'all'], timeout);
    for (const c of CASES) {
      // The same recorded statements for both: a fresh workload, then theirs, then ours.
      await runWorkload(cluster);
      for (const sql of APP_STATEMENTS) await queryRows(cluster.url, sql);
      const peer = await c.theirs(cluster.url);
      const theirs = peer.text;
      const result: CallToolResult = await callOk(session, c.tool, c.args, timeout);
      const text = resultText(result);
      const structured = result.structuredContent ? JSON.stringify(result.structuredContent) : '';
      ctx.log(
        `pginsight ${c.name}: ours ${bytes(text)} B text (+${bytes(structured)} B structured), theirs ${bytes(theirs)} B`,
      );
      rows.push(
        row({
          id: 'I1',
          name: `pg insight ${c.name}: text bytes`,
          unit: 'bytes',
          better: 'lower',
          ours: { value: bytes(text) },
          official: { value: bytes(theirs) },
          ...(c.goal ? { goal: { ratioAtMost: 0.5, text: '≤ 0.5×' } } : {}),
        }),
        row({
          id: 'I1',
          name: `pg insight ${c.name}: text + structuredContent bytes`,
          unit: 'bytes',
          better: 'lower',
          ours: { value: bytes(text) + bytes(structured) },
          official: { value: bytes(theirs) },
        }),
      );
      if (peer.queryids) {
        // The same slow statements found, in the same order: pg_stat_statements' queryid of each
        // (ours shortens long texts, so the texts are not compared).
        const ours = (
          (result.structuredContent as { queries?: { queryid: string }[] } | undefined)?.queries ?? []
        ).map((q) => q.queryid);
        const same = peer.queryids.slice(0, 3).every((id, i) => ours[i] === id);
        notes.push(
          `pg insight ${c.name}: top 3 statements ${same ? 'the same, same order' : 'DIFFER'} in both`,
        );
      }
      answers.push({
        name: `I1 ${c.name}`,
        call: c.tool,
        ours: preview(text, 300),
        official: preview(theirs, 300),
      });
    }
  } finally {
    await session?.close();
    await cluster?.stop();
  }
  return {
    rows,
    answers,
    notes: [
      ...notes,
      'pg insight: "official" is Postgres MCP Pro (crystaldba/postgres-mcp 07eb329), rebuilt: its SQL on the same database, its formatting (PyPI only, not installable here); without HypoPG its index tools answer only how to install HypoPG, so index_advice rows carry no goal',
    ],
  };
}
