/**
 * The URI of a table's schema resource, `sqlite://schema/{table}` (the name percent-encoded): served
 * by resources.ts, linked from list_tables and describe_table results (tools/schema.ts).
 */

/** What every schema resource URI starts with. */
export const SCHEMA_PREFIX = 'sqlite://schema/';

/** The schema resource URI of table `name`. */
export function schemaUri(name: string): string {
  return `${SCHEMA_PREFIX}${encodeURIComponent(name)}`;
}
