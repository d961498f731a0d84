/**
 * The operations an engine process runs on its one connection. Model SQL only ever reaches SQLite
 * through `prepare()` (one statement; better-sqlite3 refuses text with more than one) after the
 * statement policy; identifiers (table names) only as bound parameters of fixed SQL text.
 */
import type { Database, Statement } from 'better-sqlite3';
import { bindArguments, placeholders } from '../sql/params.js';
import { checkStatement, PolicyError } from '../sql/policy.js';
import { encodeValue } from '../values.js';
import { adviseIndexes } from './advice.js';
import { healthReport } from './health.js';
import type {
  ColumnInfo,
  ForeignKeyInfo,
  IndexInfo,
  Operation,
  OperationResult,
  TableDescription,
  TableEntry,
  WriteResult,
} from './protocol.js';
import { type Heartbeat, readPage } from './rows.js';
import { dropTemporaryObjects } from './temp-schema.js';

/** A statement sent to the wrong tool (a read to write_query, not CREATE TABLE to create_table). */
export class WrongToolError extends Error {
  override name = 'WrongToolError';
}

/** "more than one statement" / "no statements" from better-sqlite3's prepare(). */
export class StatementCountError extends Error {
  override name = 'StatementCountError';
}

/** A better-sqlite3 binding error (RangeError/TypeError on run/iterate) rephrased with the expected count. */
export class BindError extends Error {
  override name = 'BindError';
}

const TABLES_SQL = `SELECT name, type FROM sqlite_schema WHERE type IN ('table', 'view') AND name > ? ORDER BY name LIMIT ?`;
const NAMES_SQL = `SELECT name FROM sqlite_schema WHERE type IN ('table', 'view') AND name LIKE ? ESCAPE '\\' ORDER BY name LIMIT ?`;
const LOOKUP_SQL = `SELECT name, type, sql FROM sqlite_schema WHERE type IN ('table', 'view') AND name = ? COLLATE NOCASE`;
const COLUMNS_SQL = `SELECT cid, name, type, "notnull", dflt_value, pk, hidden FROM pragma_table_xinfo(?)`;
const INDEXES_SQL = `SELECT name, "unique", origin, partial FROM pragma_index_list(?) ORDER BY seq`;
const INDEX_COLUMNS_SQL = `SELECT name FROM pragma_index_info(?) ORDER BY seqno`;
const FOREIGN_KEYS_SQL = `SELECT id, seq, "table", "from", "to", on_update, on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq`;

export class Operations {
  readonly #cache = new Map<string, Statement>();

  constructor(
    private readonly db: Database,
    private readonly role: 'read' | 'write',
    private readonly heartbeat: Heartbeat,
  ) {}

  /** Runs one operation; throws PolicyError, ParamsError, WrongToolError, StatementCountError, BindError or SqliteError. */
  run(operation: Operation): OperationResult {
    switch (operation.op) {
      case 'query': {
        // Model reads run only on read-only connections, never on the writer.
        if (this.role !== 'read') throw new Error('query sent to the writer engine');
        checkStatement(operation.sql, 'read');
        const stmt = this.prepareModelSql(operation.sql);
        const bind = bindArguments(operation.sql, operation.params);
        if (!stmt.reader) {
          // On this read-only connection (query_only too) SQLite itself refuses any write.
          this.bound(operation.sql, () => stmt.run(...bind));
          return { op: 'query', page: { columns: [], rows: [], storageClasses: [], truncated: false } };
        }
        const page = this.bound(operation.sql, () =>
          readPage(stmt, bind, operation.offset, operation.budget, this.heartbeat),
        );
        return { op: 'query', page };
      }
      case 'write':
        return { op: 'write', result: this.write(operation) };
      case 'explain':
        return this.explain(operation);
      case 'advise': {
        if (this.role !== 'read') throw new Error('advise sent to the writer engine');
        const { plan, truncated } = this.explain({ ...operation, op: 'explain' }) as Extract<
          OperationResult,
          { op: 'explain' }
        >;
        const bind = bindArguments(operation.sql, operation.params);
        return { op: 'advise', plan, truncated, ...adviseIndexes(this.db, operation.sql, bind, plan) };
      }
      case 'health':
        if (this.role !== 'read') throw new Error('health sent to the writer engine');
        return { op: 'health', report: healthReport(this.db, operation.full) };
      case 'tables': {
        const rows = this.fixed(TABLES_SQL).all(operation.after ?? '', operation.limit + 1) as TableEntry[];
        return { op: 'tables', tables: rows.slice(0, operation.limit), more: rows.length > operation.limit };
      }
      case 'names': {
        const pattern = `${operation.prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        const names = this.fixed(NAMES_SQL).pluck().all(pattern, operation.limit) as string[];
        return { op: 'names', names };
      }
      case 'describe':
        return { op: 'describe', table: this.describe(operation.name) };
    }
  }

  /** Fixed SQL text of this module (never model text), prepared once. */
  private fixed(sql: string): Statement {
    let stmt = this.#cache.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      stmt.safeIntegers(false);
      this.#cache.set(sql, stmt);
    }
    return stmt;
  }

  /** prepare() of model SQL: exactly one statement, or StatementCountError. */
  private prepareModelSql(sql: string): Statement {
    try {
      return this.db.prepare(sql);
    } catch (error) {
      if (error instanceof RangeError && /more than one statement|no statements/.test(error.message)) {
        throw new StatementCountError(
          /more than one/.test(error.message)
            ? 'query must be exactly one SQL statement, and this text holds more than one (better-sqlite3 refuses ' +
                'several statements in one prepare). Nothing was run. Send each statement in its own call.'
            : 'query holds no SQL statement (only whitespace, comments or semicolons).',
        );
      }
      throw error;
    }
  }

  /** Runs `fn`, turning better-sqlite3's parameter-binding errors into BindError with the expected count. */
  private bound<T>(sql: string, fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      if (
        (error instanceof RangeError || error instanceof TypeError) &&
        /parameter|bind/i.test(error.message)
      ) {
        const p = placeholders(sql);
        const expected = p.anonymous || p.maxNumbered || p.named.length;
        throw new BindError(`params: ${error.message} (the query has ${expected} placeholder(s))`);
      }
      throw error;
    }
  }

  private write(operation: Extract<Operation, { op: 'write' }>): WriteResult {
    if (this.role !== 'write') throw new Error('write sent to a read-only engine');
    const c = checkStatement(operation.sql, 'write');
    if (operation.createTableOnly) {
      if (!c.createsTable || c.explain) {
        throw new WrongToolError(
          `create_table runs CREATE TABLE statements only; this one starts with ${c.head || 'no keyword'}. Use write_query for other changes.`,
        );
      }
    }
    const stmt = this.prepareModelSql(operation.sql);
    if (stmt.readonly) {
      throw new WrongToolError(
        stmt.reader
          ? 'This statement only reads data: use read_query for it. write_query is for INSERT, UPDATE, DELETE and schema changes.'
          : 'This statement does not change the database: use read_query for reads. write_query is for INSERT, UPDATE, DELETE and schema changes.',
      );
    }
    const bind = bindArguments(operation.sql, operation.params);
    const before = this.db.pragma('schema_version', { simple: true });
    stmt.safeIntegers(true);
    let result: WriteResult;
    let dropped: string[] = [];
    try {
      if (stmt.reader) {
        // INSERT/UPDATE/DELETE … RETURNING: SQLite makes every change in the first step.
        const returning = this.bound(operation.sql, () =>
          readPage(stmt, bind, 0, operation.budget, this.heartbeat),
        );
        result = {
          changes: Number(this.fixed('SELECT changes()').pluck().get()),
          lastInsertRowid: this.lastInsertRowid(),
          schemaChanged: false,
          returning,
        };
      } else {
        const info = this.bound(operation.sql, () => stmt.run(...bind));
        result = {
          changes: info.changes,
          lastInsertRowid: encodeValue(BigInt(info.lastInsertRowid), 64) as number | string,
          schemaChanged: false,
        };
      }
    } finally {
      // Policy refuses BEGIN/SAVEPOINT, so no transaction can be left open; this is the backstop.
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      // Policy refuses temporary objects; this is the backstop (temp-schema.ts).
      dropped = dropTemporaryObjects(this.db);
    }
    if (dropped.length)
      throw new PolicyError(
        `temporary objects are not kept on the writer connection (they would be invisible to every other call); dropped: ${dropped.join(', ')}. Create a regular (main schema) object instead.`,
      );
    result.schemaChanged = this.db.pragma('schema_version', { simple: true }) !== before;
    return result;
  }

  private lastInsertRowid(): number | string {
    const stmt = this.fixed('SELECT last_insert_rowid()');
    stmt.safeIntegers(true);
    return encodeValue(stmt.pluck().get(), 64) as number | string;
  }

  private explain(operation: Extract<Operation, { op: 'explain' }>): OperationResult {
    checkStatement(operation.sql, 'read');
    // The model's text follows a fixed prefix on its own line: still one statement, compiled only.
    const stmt = this.prepareModelSql(`EXPLAIN QUERY PLAN\n${operation.sql}`);
    const bind = bindArguments(operation.sql, operation.params);
    const page = this.bound(operation.sql, () => readPage(stmt, bind, 0, operation.budget, this.heartbeat));
    const plan = page.rows.map((row) => ({
      id: Number(row[0]),
      parent: Number(row[1]),
      detail: String(row[3] ?? ''),
    }));
    return { op: 'explain', plan, truncated: page.truncated };
  }

  private describe(name: string): TableDescription | null {
    const found = this.fixed(LOOKUP_SQL).get(name) as
      | { name: string; type: 'table' | 'view'; sql: string | null }
      | undefined;
    if (!found) return null;
    const columns = (
      this.fixed(COLUMNS_SQL).all(found.name) as {
        cid: number;
        name: string;
        type: string;
        notnull: number;
        dflt_value: string | null;
        pk: number;
        hidden: number;
      }[]
    ).map(
      (c): ColumnInfo => ({
        cid: c.cid,
        name: c.name,
        type: c.type,
        notNull: c.notnull === 1,
        defaultValue: c.dflt_value,
        primaryKey: c.pk,
        hidden: c.hidden,
      }),
    );
    const indexes = (
      this.fixed(INDEXES_SQL).all(found.name) as {
        name: string;
        unique: number;
        origin: string;
        partial: number;
      }[]
    ).map(
      (i): IndexInfo => ({
        name: i.name,
        unique: i.unique === 1,
        origin: i.origin,
        partial: i.partial === 1,
        columns: this.fixed(INDEX_COLUMNS_SQL).pluck().all(i.name) as (string | null)[],
      }),
    );
    const foreignKeys: ForeignKeyInfo[] = [];
    for (const fk of this.fixed(FOREIGN_KEYS_SQL).all(found.name) as {
      id: number;
      table: string;
      from: string;
      to: string | null;
      on_update: string;
      on_delete: string;
    }[]) {
      let entry = foreignKeys.find((f) => f.id === fk.id);
      if (!entry) {
        entry = {
          id: fk.id,
          table: fk.table,
          from: [],
          to: [],
          onUpdate: fk.on_update,
          onDelete: fk.on_delete,
        };
        foreignKeys.push(entry);
      }
      entry.from.push(fk.from);
      entry.to.push(fk.to);
    }
    return { name: found.name, type: found.type, sql: found.sql, columns, indexes, foreignKeys };
  }
}
