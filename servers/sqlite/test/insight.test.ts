/**
 * Plan insight on SQLite: explain_query's findings (full scans, automatic indexes, temporary
 * B-trees), index_advice judged by SQLite's planner on an in-memory schema copy, and db_health
 * (quick_check/integrity_check, foreign keys, free pages, dbstat) — all leaving the file unchanged.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Connection, callChecked, resultText, structured, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { digest, makeDb, openDb, startServer } from './support.js';

let dir: string;
let cleanup: () => Promise<void>;
let file: string;
let conn: Connection;
let before: string;

const SEED = `
  PRAGMA foreign_keys = OFF;
  CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region TEXT NOT NULL);
  CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), status TEXT, created TEXT, note TEXT);
  CREATE INDEX orders_status ON orders(status);
  WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 2000)
    INSERT INTO customers SELECT x, 'customer ' || x, CASE x % 4 WHEN 0 THEN 'north' ELSE 'south' END FROM c;
  WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 20000)
    INSERT INTO orders SELECT x, 1 + x % 2000, CASE x % 3 WHEN 0 THEN 'open' ELSE 'paid' END, date('2024-01-01', '+' || (x % 300) || ' days'), hex(randomblob(100)) FROM c;
  CREATE TABLE scratch (v TEXT);
  WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 5000)
    INSERT INTO scratch SELECT hex(randomblob(200)) FROM c;
  DELETE FROM scratch;
  INSERT INTO orders (id, customer_id, status) VALUES (999999, 424242, 'orphan');
`;

const call = async <T>(tool: string, args: Record<string, unknown>) => {
  const r = await callChecked(conn, tool, args);
  expect(r.isError, resultText(r)).toBeFalsy();
  return { data: structured<T>(r), text: resultText(r) };
};

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  file = join(dir, 'shop.db');
  makeDb(file, SEED);
  before = digest(file);
  conn = await startServer(['--db-path', file]);
});
afterAll(async () => {
  await conn?.close();
  await cleanup?.();
});

interface Explained {
  findings: { kind: string; text: string }[];
}
interface Advice {
  candidates: {
    ddl: string;
    used: boolean | null;
    planAfter: string[];
    table: string;
    columns: string[];
    reason: string;
  }[];
  notes: string[];
}

describe('explain_query findings', () => {
  it('names full scans and temporary B-trees', async () => {
    const { data, text } = await call<Explained>('explain_query', {
      query: 'SELECT * FROM orders o WHERE o.customer_id = ? ORDER BY created',
      params: [7],
    });
    expect(data.findings.map((f) => f.kind)).toEqual(['full scan', 'temp b-tree']);
    expect(text).toMatch(/SCAN o: reads every row of o/);
  });

  it('names an automatic index', async () => {
    const { data } = await call<Explained>('explain_query', {
      query: 'SELECT count(*) FROM customers c JOIN orders o ON o.created = c.name',
    });
    expect(data.findings.map((f) => f.kind)).toContain('automatic index');
  });

  it('finds nothing to say when an index serves the step', async () => {
    const { data } = await call<Explained>('explain_query', {
      query: "SELECT * FROM orders WHERE status = 'open'",
    });
    expect(data.findings).toEqual([]);
  });
});

describe('index_advice', () => {
  it('proposes an index for a filtered full scan, checked by the planner', async () => {
    const { data, text } = await call<Advice>('index_advice', {
      query: 'SELECT * FROM orders o WHERE o.customer_id = ? AND o.created > ?',
      params: [7, '2024-03-01'],
    });
    expect(data.candidates.map((c) => [c.ddl, c.used])).toEqual([
      ['CREATE INDEX "orders_customer_id_created_idx" ON "orders" ("customer_id", "created")', true],
    ]);
    expect(data.candidates[0]?.planAfter.join()).toMatch(
      /SEARCH o USING INDEX the candidate \(customer_id=\? AND created>\?\)/,
    );
    expect(text).toMatch(/nothing was created in the database/);
  });

  it("turns SQLite's automatic index into a permanent candidate", async () => {
    const { data } = await call<Advice>('index_advice', {
      query: 'SELECT count(*) FROM customers c JOIN orders o ON o.created = c.name',
    });
    const auto = data.candidates.find((c) => c.reason.startsWith('SQLite builds this index'));
    expect(auto?.used).toBe(true);
    expect(auto?.ddl).toMatch(/^CREATE INDEX "(orders_created|customers_name)_idx"/);
  });

  it('covers the ORDER BY after the equality columns', async () => {
    const { data } = await call<Advice>('index_advice', {
      query: 'SELECT * FROM customers WHERE region = ? ORDER BY name LIMIT 5',
      params: ['north'],
    });
    expect(data.candidates.filter((c) => c.used).map((c) => c.columns)).toContainEqual(['region', 'name']);
  });

  it('names an existing index instead of proposing it again', async () => {
    const { data } = await call<Advice>('index_advice', {
      query: "SELECT * FROM orders NOT INDEXED WHERE status = 'open'",
    });
    expect(data.candidates).toEqual([]);
    expect(data.notes.join()).toMatch(
      /orders \(status\): index orders_status already leads with these columns/,
    );
  });

  it("plans a write's WHERE without running it", async () => {
    const { data } = await call<Advice>('index_advice', {
      query: 'DELETE FROM orders WHERE customer_id = ?',
      params: [5],
    });
    expect(data.candidates.map((c) => [c.ddl, c.used])).toEqual([
      ['CREATE INDEX "orders_customer_id_idx" ON "orders" ("customer_id")', true],
    ]);
  });
});

interface Health {
  status: string;
  check: string;
  problems: string[];
  foreignKeyViolations: number;
  freelistCount: number;
  pageCount: number;
  objects: { name: string; bytes: number }[] | null;
}

describe('db_health', () => {
  it('reports quick_check, the orphan foreign key, free pages and the largest objects', async () => {
    const { data, text } = await call<Health>('db_health', {});
    expect(data.check).toBe('quick_check');
    expect(data.problems).toEqual([]);
    expect(data.foreignKeyViolations).toBe(1);
    expect(data.freelistCount).toBeGreaterThan(0);
    expect(data.objects?.[0]?.name).toBe('orders');
    expect(data.status).toBe('warning');
    expect(text).toMatch(/1 row\(s\) violate \(orders → customers\)/);
  });

  it('runs integrity_check on request and finds corruption', async () => {
    const full = await call<Health>('db_health', { full: true });
    expect(full.data.check).toBe('integrity_check');
    // A copy with one index page overwritten: the index no longer matches its table.
    const broken = join(dir, 'broken.db');
    makeDb(
      broken,
      'CREATE TABLE t (a TEXT); CREATE INDEX t_a ON t(a); WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 500) INSERT INTO t SELECT hex(randomblob(50)) FROM c;',
    );
    const db = openDb(broken);
    const root = Number(db.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 't_a'").pluck().get());
    const pageSize = Number(db.pragma('page_size', { simple: true }));
    db.close();
    const bytes = readFileSync(broken);
    bytes.fill(0xff, (root - 1) * pageSize + 8, root * pageSize);
    writeFileSync(broken, bytes);
    const other = await startServer(['--db-path', broken]);
    try {
      const r = await callChecked(other, 'db_health', { full: true });
      expect(r.isError, resultText(r)).toBeFalsy();
      const data = structured<Health>(r);
      expect(data.status).toBe('critical');
      expect(data.problems.length).toBeGreaterThan(0);
    } finally {
      await other.close();
    }
  });
});

describe('read-only', () => {
  it('left the database file byte for byte as it was', () => {
    expect(digest(file)).toBe(before);
  });
});
