/**
 * The two PostgreSQL servers under test: ours (built from servers/postgres) and the official
 * @modelcontextprotocol/server-postgres (a bench dependency). Both take the database URL as their
 * first argument.
 */
import { locateApiServers } from '../api-servers.js';
import type { ServerUnderTest, Side } from '../servers.js';

/** Finds both servers; an absent one is returned with `missing` set, not thrown. */
export function locatePostgresServers(): Record<Side, ServerUnderTest> {
  return locateApiServers('postgres', '@modelcontextprotocol/server-postgres');
}
