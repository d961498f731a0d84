/**
 * The statement policy: what a statement from the model may be, decided before SQLite compiles it.
 *
 * Why before, and why from the leading tokens: better-sqlite3 12.x exposes no authorizer
 * (sqlite3_set_authorizer) and no interrupt, and SQLite applies some PRAGMAs while *compiling*
 * (flag pragmas such as query_only and writable_schema change the connection inside
 * sqlite3Pragma(), sqlite/src/pragma.c, during prepare — even under EXPLAIN). So a pragma cannot be
 * judged after prepare(). SQLite's grammar (parse.y, `cmd ::= …`) fixes a statement's kind by its
 * first keyword (after an optional EXPLAIN [QUERY PLAN]); ATTACH, DETACH, VACUUM and PRAGMA
 * statements can be written no other way, so reading those keywords with SQLite's tokenizer rules
 * is exact — it is not keyword matching on the rest of the text.
 *
 * Refused in every mode (they reach outside the database file or corrupt it):
 * - ATTACH / DETACH (open other files; sqlite.org/lang_attach.html);
 * - VACUUM INTO (writes a copy to any path — measured: it creates the file even on a read-only
 *   connection before failing; sqlite.org/lang_vacuum.html#vacuuminto);
 * - every PRAGMA outside the allow-lists below (writable_schema, journal_mode, temp_store_directory,
 *   query_only, trusted_schema, … — sqlite.org/pragma.html);
 * - transaction control (BEGIN/COMMIT/END/ROLLBACK/SAVEPOINT/RELEASE): each call is its own
 *   transaction, and a transaction left open would pin locks across calls.
 * Refused on the writer: temporary schema objects — CREATE TEMP/TEMPORARY TABLE/VIEW/TRIGGER, and
 * any CREATE whose name is qualified with the temp schema (`temp.x`, `"TEMP".x`; parse.y:
 * `createkw temp TABLE|VIEW|TRIGGER ifnotexists nm dbnm`, `createkw uniqueflag INDEX ifnotexists nm
 * dbnm`, `createkw VIRTUAL TABLE ifnotexists nm dbnm`). They would live on the one writer connection
 * across calls, invisible to every other connection (engine/temp-schema.ts). On read connections
 * SQLite itself refuses them (query_only).
 * load_extension() needs no rule here: extension loading is never enabled, and SQLite answers
 * "not authorized" (sqlite.org/c3ref/enable_load_extension.html).
 * Read-only is not decided here: reads run on a connection SQLite itself keeps read-only.
 */
import { identifierText, keyword, significantTokens, type Token } from './tokenize.js';

/** A statement refused by the policy; the message says why and what to do instead. */
export class PolicyError extends Error {
  override name = 'PolicyError';
}

/** Where a statement will run: the read-only connection, or the writer (--allow-writes). */
export type Mode = 'read' | 'write';

/** PRAGMAs that only report, callable bare (`PRAGMA page_count`) on any connection. */
export const REPORTING_PRAGMAS: ReadonlySet<string> = new Set([
  'application_id',
  'auto_vacuum',
  'collation_list',
  'compile_options',
  'data_version',
  'database_list',
  'encoding',
  'foreign_keys',
  'freelist_count',
  'function_list',
  'journal_mode',
  'module_list',
  'page_count',
  'page_size',
  'pragma_list',
  'schema_version',
  'table_list',
  'user_version',
]);

/** PRAGMAs whose argument names a table or index (or a check limit), not a setting. */
export const INSPECTING_PRAGMAS: ReadonlySet<string> = new Set([
  'foreign_key_check',
  'foreign_key_list',
  'index_info',
  'index_list',
  'index_xinfo',
  'integrity_check',
  'quick_check',
  'table_info',
  'table_list',
  'table_xinfo',
]);

/** PRAGMAs that change the database file's own header or maintain it: writer only. */
export const WRITING_PRAGMAS: ReadonlySet<string> = new Set([
  'application_id',
  'incremental_vacuum',
  'optimize',
  'user_version',
  'wal_checkpoint',
]);

const TRANSACTION_KEYWORDS = new Set(['BEGIN', 'COMMIT', 'END', 'ROLLBACK', 'SAVEPOINT', 'RELEASE']);

export interface Classification {
  /** The statement's first keyword after EXPLAIN [QUERY PLAN], upper-cased ('' when none). */
  head: string;
  /** The statement is prefixed with EXPLAIN or EXPLAIN QUERY PLAN. */
  explain: boolean;
  /** CREATE [TEMP] TABLE / CREATE VIRTUAL TABLE. */
  createsTable: boolean;
  /** CREATE TEMP/TEMPORARY …, or CREATE … temp.name (an object in the temp schema). */
  temporary: boolean;
  /** For PRAGMA statements: the pragma's name (lower case) and whether a value/argument is given. */
  pragma?: { name: string; hasArgument: boolean; assigns: boolean };
}

/** Statement tokens up to (not including) the first `;` — prepare() refuses anything after it. */
function firstStatement(sql: string): Token[] {
  const tokens = significantTokens(sql);
  const semi = tokens.findIndex((t) => t.type === 'semicolon');
  return semi === -1 ? tokens : tokens.slice(0, semi);
}

/** Reads the kind of the first statement in `sql` (see the module comment). */
export function classify(sql: string): Classification {
  const tokens = firstStatement(sql);
  let i = 0;
  let explain = false;
  if (keyword(tokens[0]) === 'EXPLAIN') {
    explain = true;
    i = keyword(tokens[1]) === 'QUERY' && keyword(tokens[2]) === 'PLAN' ? 3 : 1;
  }
  const head = keyword(tokens[i]) ?? '';
  const rest = tokens.slice(i + 1);
  const result: Classification = { head, explain, createsTable: false, temporary: false };
  if (head === 'CREATE') {
    // CREATE [TEMP|TEMPORARY] [UNIQUE|VIRTUAL] TABLE|VIEW|TRIGGER|INDEX [IF NOT EXISTS] [schema.]name
    let j = 0;
    const mod = keyword(rest[j]);
    if (mod === 'TEMP' || mod === 'TEMPORARY') {
      result.temporary = true;
      j++;
    }
    if (keyword(rest[j]) === 'VIRTUAL' || keyword(rest[j]) === 'UNIQUE') j++;
    const kind = keyword(rest[j]);
    result.createsTable = kind === 'TABLE';
    if (kind === 'TABLE' || kind === 'VIEW' || kind === 'TRIGGER' || kind === 'INDEX') {
      j++;
      if (keyword(rest[j]) === 'IF' && keyword(rest[j + 1]) === 'NOT' && keyword(rest[j + 2]) === 'EXISTS')
        j += 3;
      const dot = rest[j + 1];
      const schema = dot?.type === 'operator' && dot.text === '.' ? identifierText(rest[j]) : undefined;
      // Schema names match case-insensitively (sqlite3FindDbName); the temp schema is "temp".
      if (schema?.toLowerCase() === 'temp') result.temporary = true;
    }
  }
  if (head === 'PRAGMA') {
    // PRAGMA [schema.]name [= value | (value)] — names may be quoted (parse.y: nm ::= id|STRING).
    let j = 0;
    if (rest[1]?.type === 'operator' && rest[1].text === '.') j = 2;
    const name = (identifierText(rest[j]) ?? '').toLowerCase();
    const after = rest[j + 1];
    const assigns = after?.type === 'operator' && after.text === '=';
    const hasArgument = assigns || (after?.type === 'operator' && after.text === '(');
    result.pragma = { name, hasArgument, assigns };
  }
  if (head === 'VACUUM' && rest.some((t) => keyword(t) === 'INTO')) result.head = 'VACUUM INTO';
  return result;
}

const OUTSIDE = 'it reaches outside this database file, so this server refuses it in every mode';

/**
 * Throws PolicyError when the first statement of `sql` may not run in `mode` (rules in the module
 * comment); returns its classification otherwise. Does not check that there is only one statement:
 * prepare() does (better-sqlite3 refuses SQL text with more than one statement).
 */
export function checkStatement(sql: string, mode: Mode): Classification {
  const c = classify(sql);
  switch (c.head) {
    case 'ATTACH':
    case 'DETACH':
      throw new PolicyError(`${c.head} is refused: ${OUTSIDE}. Query the tables of this database only.`);
    case 'VACUUM INTO':
      throw new PolicyError(
        `VACUUM INTO is refused: it writes a copy of the database to another file; ${OUTSIDE}.`,
      );
    case 'PRAGMA':
      checkPragma(c, mode);
      break;
    case 'CREATE':
      if (mode === 'write' && c.temporary)
        throw new PolicyError(
          'TEMP/TEMPORARY objects (and objects in the temp schema) are refused: they would live only on this ' +
            "server's writer connection, kept across calls and invisible to read_query, list_tables and describe_table — " +
            'a TEMP trigger would act on later writes unseen, a TEMP view or table would shadow the real table. ' +
            'Create a regular (main schema) object instead.',
        );
      break;
    default:
      if (TRANSACTION_KEYWORDS.has(c.head)) {
        throw new PolicyError(
          `${c.head} is refused: transaction control is not available. Every call runs as its own transaction ` +
            '(committed when it succeeds, rolled back when it fails); send one statement per call.',
        );
      }
  }
  return c;
}

function checkPragma(c: Classification, mode: Mode): void {
  const pragma = c.pragma ?? { name: '', hasArgument: false, assigns: false };
  const { name } = pragma;
  const readable = [...new Set([...REPORTING_PRAGMAS, ...INSPECTING_PRAGMAS])].sort().join(', ');
  if (INSPECTING_PRAGMAS.has(name) && !pragma.assigns) return;
  if (REPORTING_PRAGMAS.has(name) && !pragma.hasArgument) return;
  if (WRITING_PRAGMAS.has(name)) {
    if (mode === 'write') return;
    throw new PolicyError(
      `PRAGMA ${name} with a value changes the database: use write_query (servers started with --allow-writes). ` +
        'Reading it works: PRAGMA name without a value.',
    );
  }
  throw new PolicyError(
    `PRAGMA ${name || '(unnamed)'}${pragma.hasArgument ? ' with a value' : ''} is refused: only pragmas that report on ` +
      `the database are allowed (${readable}${mode === 'write' ? `; to change: ${[...WRITING_PRAGMAS].join(', ')}` : ''}). ` +
      'Pragmas that change connection settings or the file format (writable_schema, journal_mode, query_only, …) are refused in every mode. ' +
      'Table-valued forms work in queries too, e.g. SELECT * FROM pragma_table_info(?).',
  );
}
