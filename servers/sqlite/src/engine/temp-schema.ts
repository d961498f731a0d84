/**
 * The writer's temp schema, kept empty. Temporary tables, views, triggers and indexes live only on
 * the connection that created them (sqlite.org/lang_createtable.html, lang_createtrigger.html
 * "TEMP triggers") — here the one writer every write call shares — and no other connection sees
 * them, so read_query, list_tables and describe_table cannot either. A TEMP trigger would act on
 * later writes unseen; a TEMP view or table shadows the main table of the same name for them
 * (lang_naming.html: temp is searched first). The statement policy refuses creating them
 * (policy.ts); this is the backstop run after every write: whatever is in the temp schema is dropped.
 */
import type { Database, Statement } from 'better-sqlite3';

/** Fixed SQL: objects of the temp schema that can be dropped (indexes and triggers of a table go with it). */
const TEMP_OBJECTS_SQL = `SELECT type, name FROM temp.sqlite_schema
  WHERE type IN ('trigger', 'view', 'table') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
  ORDER BY type = 'table', name`;

/** The listing statement of each connection, prepared once. */
const listings = new WeakMap<Database, Statement>();

const DROP: Record<string, string> = { trigger: 'TRIGGER', view: 'VIEW', table: 'TABLE' };

/** `name` as a quoted SQLite identifier (a doubled `"` stands for one: sqlite.org/lang_keywords.html). */
function quoted(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/**
 * Drops every table, view and trigger of `db`'s temp schema; returns their names (none: nothing
 * was there, the usual case — one small read of the in-memory temp catalog).
 */
export function dropTemporaryObjects(db: Database): string[] {
  let list = listings.get(db);
  if (!list) {
    list = db.prepare(TEMP_OBJECTS_SQL);
    list.safeIntegers(false);
    listings.set(db, list);
  }
  const objects = list.all() as { type: string; name: string }[];
  const dropped: string[] = [];
  for (const { type, name } of objects) {
    // The name comes from SQLite's own catalog and is used only as a quoted identifier.
    db.exec(`DROP ${DROP[type]} IF EXISTS temp.${quoted(name)}`);
    dropped.push(name);
  }
  return dropped;
}
