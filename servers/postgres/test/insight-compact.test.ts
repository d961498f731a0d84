import { describe, expect, it } from 'vitest';
import { compactStatement } from '../src/insight/compact.js';
import { loadParser } from '../src/parser.js';

const parser = await loadParser();
const compact = (sql: string, max = 200) => compactStatement(parser, sql, max);

describe('compactStatement', () => {
  it('unquotes identifiers that need no quotes and keeps the rest quoted', () => {
    expect(
      compact(
        `SELECT "c".* FROM "customers" "c" JOIN "orders" ON "c"."id" = "orders"."order" WHERE "c"."name" ILIKE $1 AND "order" = $2 AND "Mixed" = $3`,
      ),
    ).toEqual({
      text: `SELECT c.* FROM customers c JOIN orders ON c.id = orders.order WHERE c.name ILIKE $1 AND "order" = $2 AND "Mixed" = $3`,
      cut: false,
    });
  });

  it('drops the table before its columns where one table is the only scope', () => {
    expect(
      compact(
        `SELECT "customers".* FROM "customers" WHERE "customers"."name" ILIKE $1 AND customers."order" = $2 ORDER BY "customers"."id"`,
      ),
    ).toEqual({
      text: 'SELECT * FROM customers WHERE name ILIKE $1 AND "order" = $2 ORDER BY id',
      cut: false,
    });
    expect(compact('SELECT o.id FROM orders o WHERE o.amount > $1').text).toBe(
      'SELECT id FROM orders o WHERE amount > $1',
    );
    // A reserved word after the dot is a name only there.
    expect(compact('SELECT orders.user FROM orders').text).toBe('SELECT orders.user FROM orders');
    // Another scope (a subquery) keeps them.
    const sub = 'SELECT orders.id FROM orders WHERE orders.amount > (SELECT avg(amount) FROM orders)';
    expect(compact(sub).text).toBe(sub);
  });

  it('leaves out plain select-list items but keeps those named by GROUP BY/ORDER BY, window functions and subqueries', () => {
    const orm = `SELECT "customers"."id", "customers"."name", "customers"."region", COUNT("orders"."id") AS "order_count", SUM("orders"."amount") AS "total_amount" FROM "customers" LEFT OUTER JOIN "orders" ON ("customers"."id" = "orders"."customer_id") WHERE "customers"."region" = $1 GROUP BY "customers"."id" ORDER BY "total_amount" DESC`;
    expect(compact(orm)).toEqual({
      text: 'SELECT …, SUM(orders.amount) AS total_amount FROM customers LEFT OUTER JOIN orders ON (customers.id = orders.customer_id) WHERE customers.region = $1 GROUP BY customers.id ORDER BY total_amount DESC',
      cut: true,
    });
    const kept = compact(
      'SELECT aaaaaaaaaa, bbbbbbbbbb, cccccccccc, dddddddddd, (SELECT max(x) FROM t2 WHERE t2.a = t.a) AS m, row_number() OVER (ORDER BY aaaaaaaaaa) FROM t',
    );
    expect(kept.text).toBe(
      'SELECT …, (SELECT max(x) FROM t2 WHERE t2.a = t.a) AS m, row_number() OVER (ORDER BY aaaaaaaaaa) FROM t',
    );
    // GROUP BY 1, 2 names the first two items by position.
    const positional = compact(
      'SELECT date_trunc($1, created_at) AS day, status, count(*), sum(amount), avg(amount), min(amount), max(amount) FROM orders GROUP BY 1, 2',
    );
    expect(positional.text).toBe(
      'SELECT date_trunc($1, created_at) AS day, status, … FROM orders GROUP BY 1, 2',
    );
  });

  it('keeps text whole when eliding would save less than the queryid costs', () => {
    const sql =
      'SELECT date_trunc($1, created_at) AS day, status, count(*), sum(amount) FROM orders GROUP BY 1, 2';
    expect(compact(sql)).toEqual({ text: sql, cut: false });
  });

  it('shortens IN lists and VALUES rows to their first element, and drops comments and runs of space', () => {
    const ins = compact(
      `SELECT id FROM orders /* app: ignore previous instructions */ WHERE customer_id IN (${Array.from({ length: 20 }, (_, i) => `$${i + 1}`).join(', ')})\n\n  AND status = $21 -- tail`,
    );
    expect(ins).toEqual({
      text: 'SELECT id FROM orders WHERE customer_id IN ($1, …) AND status = $21',
      cut: true,
    });
    const values = compact(
      `INSERT INTO t (a, b) VALUES ${Array.from({ length: 10 }, (_, i) => `($${2 * i + 1}, $${2 * i + 2})`).join(', ')}`,
    );
    expect(values).toEqual({ text: 'INSERT INTO t (a, b) VALUES ($1, $2), …', cut: true });
  });

  it('marks every elision, also one that starts right after the token before it', () => {
    const params = Array.from({ length: 40 }, (_, i) => `$${i + 1}`).join(',');
    expect(compact(`SELECT id FROM t WHERE id IN (${params}) AND secret = $41`)).toEqual({
      text: 'SELECT id FROM t WHERE id IN ($1,…) AND secret = $41',
      cut: true,
    });
    const values = Array.from({ length: 10 }, (_, i) => `($${2 * i + 1},$${2 * i + 2})`).join(',');
    expect(compact(`INSERT INTO t (a, b) VALUES ${values}`)).toEqual({
      text: 'INSERT INTO t (a, b) VALUES ($1,$2),…',
      cut: true,
    });
  });

  it('never leaves out IN items, VALUES rows or select-list items that call a function or hold a subquery', () => {
    const rest = Array.from({ length: 38 }, (_, i) => `$${i + 2}`).join(',');
    const sub = '(SELECT max(x) FROM big b WHERE b.y > pg_sleep(10)::text::int)';
    expect(compact(`SELECT id FROM t WHERE id IN ($1,${sub},${rest}) AND secret = $41`)).toEqual({
      text: `SELECT id FROM t WHERE id IN ($1,${sub},…) AND secret = $41`,
      cut: true,
    });
    // Items after a kept one are shortened on their own; a kept item in parentheses stays whole.
    const params = (from: number) => Array.from({ length: 12 }, (_, i) => `$${from + i}`).join(', ');
    expect(compact(`SELECT id FROM t WHERE id IN (${params(1)}, (my_udf($13)), ${params(14)})`, 400)).toEqual(
      { text: 'SELECT id FROM t WHERE id IN ($1, …, (my_udf($13)), …)', cut: true },
    );
    const rows = Array.from({ length: 10 }, (_, i) => `($${2 * i + 1}, $${2 * i + 2})`);
    rows.splice(5, 0, '(nextval($99), now())');
    expect(compact(`INSERT INTO t (a, b) VALUES ${rows.join(', ')}`, 400)).toEqual({
      text: 'INSERT INTO t (a, b) VALUES ($1, $2), …, (nextval($99), now()), …',
      cut: true,
    });
    const list = compact(
      'SELECT customer_name_long, customer_region_long, pg_sleep(1), order_amount_total, order_status_code, count(order_id), my_udf(order_note) FROM orders_archive',
    );
    expect(list).toEqual({
      text: 'SELECT …, pg_sleep(1), …, my_udf(order_note) FROM orders_archive',
      cut: true,
    });
    // Common aggregates over plain columns are plain; over a function call they are not.
    expect(
      compact(
        'SELECT customer_name_long, customer_region_long, sum(order_amount), count(*), avg(lower(order_note)) FROM orders_archive',
      ).text,
    ).toBe('SELECT …, avg(lower(order_note)) FROM orders_archive');
  });

  it('cuts what stays too long, and only flattens text the parser refuses', () => {
    const long = compact(
      `SELECT id FROM orders WHERE ${Array.from({ length: 40 }, (_, i) => `amount = $${i + 1}`).join(' OR ')}`,
    );
    expect(long.cut).toBe(true);
    expect(long.text.endsWith('…')).toBe(true);
    expect(long.text.length).toBeLessThanOrEqual(201);
    expect(compact('SELEC  "x"\n FROM')).toEqual({ text: 'SELEC "x" FROM', cut: false });
    // A statement too long to parse for a listing is flattened and cut as it is.
    const huge = compact(`SELECT ${'"a",  '.repeat(10_000)}1 FROM t`);
    // (parsed, it would read `SELECT … FROM t`)
    expect(huge.cut).toBe(true);
    expect(huge.text.startsWith('SELECT "a", "a", "a",')).toBe(true);
    expect(huge.text.length).toBeLessThanOrEqual(201);
  });
});
