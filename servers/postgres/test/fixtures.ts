/** The schema and rows the tests read: loaded once per suite by global-setup.ts, as the writer role. */
import pg from 'pg';

/** Rows in `users` (case PG-06: a big table). */
export const USERS = 100_000;

export const FIXTURE_SQL = `
CREATE TABLE users (
  id bigint PRIMARY KEY,
  name text NOT NULL,
  email text UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);
COMMENT ON TABLE users IS 'People who can sign in';
COMMENT ON COLUMN users.email IS 'Login e-mail address';
INSERT INTO users (id, name, email, created_at)
  SELECT i, 'user ' || i, 'user' || i || '@example.com', timestamptz '2024-01-01 00:00:00+00' + i * interval '1 minute'
    FROM generate_series(1, ${USERS}) AS i;

CREATE TABLE orders (
  id integer GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  total numeric(12,2) NOT NULL CHECK (total >= 0),
  placed_on date NOT NULL
);
CREATE INDEX orders_user_id_idx ON orders (user_id);
INSERT INTO orders (user_id, total, placed_on)
  SELECT (i % 100) + 1, (i * 3.25)::numeric(12,2), date '2024-01-01' + (i % 60) FROM generate_series(1, 500) AS i;

CREATE TABLE t (d double precision);
INSERT INTO t SELECT g FROM generate_series(1, 9) AS g;

CREATE TABLE exact_types (
  big bigint, num numeric, small_num numeric(5,2), d date, ts timestamp, tstz timestamptz, iv interval,
  raw bytea, j json, jb jsonb, arr integer[], nums numeric[], f double precision, flag boolean, u uuid, note text
);
INSERT INTO exact_types VALUES (
  9223372036854775807, 12345678901234567890.123456789, 123.45, '2024-02-29', '2024-02-29 13:14:15.123456',
  '2024-02-29 13:14:15+00', '1 year 2 mons 3 days 04:05:06', '\\xdeadbeef00', '{"a": 1, "big": 12345678901234567890}',
  '{"b": [1, 2.5, null], "s": "x"}', '{1,2,3}', '{1.10,99999999999999999999.5}', 'NaN', true,
  'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', 'line one
line two | with a pipe'
);

CREATE SCHEMA sales;
COMMENT ON SCHEMA sales IS 'Sales data';
CREATE TABLE sales.invoices (id serial PRIMARY KEY, order_id integer REFERENCES public.orders(id), amount numeric(10,2));
CREATE VIEW sales.big_orders AS SELECT * FROM public.orders WHERE total > 1000;
CREATE TABLE sales."Mixed Case" (id int);

ANALYZE;
`;

export async function loadFixtures(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(FIXTURE_SQL);
  } finally {
    await client.end();
  }
}
