/** The PostgreSQL server's own test fixtures: the suite's database, its launch, an admin client. */
import { type Era, startBuiltServer } from '@refmcp/test-harness';
import pg from 'pg';
import { inject } from 'vitest';

/** The suite's database (see global-setup.ts). */
export const db = () => inject('pg');

/** Spawns the built server with `args` (the test database URL first unless `url: false`). */
export function startServer(
  args: string[] = [],
  opts: { url?: string | false; env?: Record<string, string>; era?: Era } = {},
) {
  const url = opts.url === false ? [] : [opts.url ?? db().url];
  return startBuiltServer('postgres', [...url, ...args], { env: opts.env ?? {}, era: opts.era ?? 'legacy' });
}

/** Runs `fn` with a superuser client on the test database (assertions and setup). */
export async function asAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: db().adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
