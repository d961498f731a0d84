/**
 * The suite's database: a throwaway PostgreSQL (or $DATABASE_URL), a fresh database and a role
 * that CAN write — and is even granted the predefined roles that read/write server files, run
 * programs and signal backends — so every refusal in the tests is proven to come from our server,
 * not from a lack of privilege. Its password is TESTTOKEN123 (case ALL-03 looks for it).
 */
import { randomBytes } from 'node:crypto';
import { type PostgresService, startPostgres } from '@refmcp/test-harness';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { loadFixtures } from './fixtures.js';

export const PASSWORD = 'TESTTOKEN123';

declare module 'vitest' {
  export interface ProvidedContext {
    pg: {
      /** Superuser URL of the cluster (for assertions and setup only). */
      adminUrl: string;
      /** The test database, as the writer role (what the server under test connects with). */
      url: string;
      database: string;
      role: string;
    };
  }
}

let service: PostgresService | undefined;
let cleanup: (() => Promise<void>) | undefined;

export async function setup(project: TestProject): Promise<void> {
  service = await startPostgres();
  const suffix = randomBytes(4).toString('hex');
  const database = `refmcp_pg_${suffix}`;
  const role = `refmcp_writer_${suffix}`;
  const admin = new pg.Client({ connectionString: service.url });
  await admin.connect();
  try {
    await admin.query(`CREATE ROLE ${role} LOGIN PASSWORD '${PASSWORD}'`);
    await admin.query(
      `GRANT pg_execute_server_program, pg_read_server_files, pg_write_server_files, pg_signal_backend TO ${role}`,
    );
    await admin.query(`CREATE DATABASE ${database} OWNER ${role}`);
  } finally {
    await admin.end();
  }
  const adminUrl = new URL(service.url);
  const url = new URL(service.url);
  url.username = role;
  url.password = PASSWORD;
  url.pathname = `/${database}`;
  adminUrl.pathname = `/${database}`;
  // Function privileges live in each database: grant the file functions there too.
  const inDb = new pg.Client({ connectionString: adminUrl.href });
  await inDb.connect();
  try {
    await inDb.query(
      `GRANT EXECUTE ON FUNCTION pg_read_file(text), pg_read_binary_file(text), pg_ls_dir(text),
         pg_stat_file(text), lo_import(text), lo_export(oid, text) TO ${role}`,
    );
  } finally {
    await inDb.end();
  }
  await loadFixtures(url.href);
  const stop = service.stop;
  cleanup = async () => {
    const c = new pg.Client({ connectionString: service?.url });
    await c.connect();
    try {
      await c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await c.query(`DROP ROLE IF EXISTS ${role}`);
    } finally {
      await c.end();
    }
    await stop();
  };
  project.provide('pg', { adminUrl: adminUrl.href, url: url.href, database, role });
}

export async function teardown(): Promise<void> {
  await cleanup?.();
}
