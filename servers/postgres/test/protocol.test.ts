/**
 * The second layer under the guard's one-statement rule: the statement goes to PostgreSQL through
 * the extended protocol (portal.ts: Parse/Bind/Execute), which carries exactly one statement, so
 * even SQL the guard let through as one statement could not run a second. Proven against the real
 * database with the protocol step itself (the built server never gets this far: the guard refuses
 * first, see PG-01 in cases.test.ts).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPg } from '../src/pg-module.js';
import { PortalStep } from '../src/portal.js';
import { asAdmin, db } from './support.js';

let client: pg.Client;
beforeAll(async () => {
  await loadPg();
  client = new pg.Client({ connectionString: db().url });
  await client.connect();
});
afterAll(() => client.end());

function step(sql: string, prelude: string[] = []): Promise<unknown> {
  const submitted = client.query(
    new PortalStep('p', 100, { text: sql, values: [] }, [], prelude) as never,
  ) as unknown as PortalStep;
  return submitted.done;
}

describe('extended protocol: one statement per Parse', () => {
  it('PG-01 second layer: PostgreSQL refuses a second statement at Parse, and nothing of it runs', async () => {
    await expect(step('COMMIT; DROP TABLE users')).rejects.toThrow(
      /cannot insert multiple commands into a prepared statement/,
    );
    await expect(
      step('SELECT 1; INSERT INTO users (id) VALUES (-4242)', [
        'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
      ]),
    ).rejects.toThrow(/cannot insert multiple commands/);
    await client.query('ROLLBACK');
    const state = await asAdmin(
      async (c) =>
        (
          await c.query(
            "SELECT to_regclass('users') IS NOT NULL AS t, count(*) FILTER (WHERE id = -4242) AS n FROM users",
          )
        ).rows[0],
    );
    expect(state).toEqual({ t: true, n: '0' });
  });

  it('one statement in the same step runs normally', async () => {
    const r = (await step('SELECT 41 + 1 AS answer')) as { rows: unknown[][] };
    expect(r.rows).toEqual([[42]]);
  });
});
