/**
 * PostgreSQL's own parser (libpg_query, compiled to WebAssembly by the `libpg-query` package, a
 * runtime dependency kept outside the bundle so its .wasm file is found next to its loader): the
 * raw parse tree of SQL exactly as the server's grammar reads it, PostgreSQL 18's. Loaded on the
 * first call, not at startup (~35–80 ms to instantiate), then used synchronously.
 *
 * WebAssembly is compiled by V8's baseline compiler only (`--liftoff-only`, set by the bin at start:
 * `--v8-flags` in package.json's build; it concerns WebAssembly alone, and this is the only module): the
 * optimizing tier re-compiles the 1.7 MB module in the background after load, which cost ~25 MB of
 * RSS and made the first few hundred parses take 1–2 ms each on a busy 2-core machine, for no
 * steady-state gain on statements this small (~40–80 µs per parse either way, measured).
 *
 * Trees are libpg_query's JSON (protobuf field names): a node is `{ "<NodeType>": { …fields } }`,
 * a list is an array of nodes, and locations and lengths are byte offsets into the UTF-8 text.
 */

/** One statement of a parse result (RawStmt). */
export interface RawStmt {
  stmt?: Record<string, unknown>;
  /** Byte offset of the statement in the text (absent = 0). */
  stmt_location?: number;
  /** Byte length (absent or 0 = to the end of the text). */
  stmt_len?: number;
}

export interface ParseResult {
  stmts: RawStmt[];
}

/** A token of the scanner (scan.l); `start`/`end` are byte offsets. */
export interface ScanToken {
  start: number;
  end: number;
  text: string;
  tokenName: string;
  /** 0 not a keyword, 1 unreserved, 2 column name, 3 type or function name, 4 reserved (kwlist.h). */
  keywordKind: number;
}

/** What the parser refused, shaped like a PostgreSQL error (SQLSTATE 42601, 1-based character position). */
export class SqlSyntaxError extends Error {
  override name = 'SqlSyntaxError';
  readonly code = '42601';
  constructor(
    message: string,
    /** 1-based character position, as PostgreSQL reports it (a string, like pg's DatabaseError). */
    readonly position: string | undefined,
  ) {
    super(message);
  }
}

interface Module {
  loadModule(): Promise<void>;
  parseSync(sql: string): ParseResult;
  parsePlPgSQLSync(sql: string): { plpgsql_funcs?: unknown[] };
  scanSync(sql: string): { tokens: ScanToken[] };
}

export interface Parser {
  /** The statements of `sql` (none for only comments or whitespace). Throws SqlSyntaxError. */
  parse(sql: string): ParseResult;
  /** The PL/pgSQL trees of the CREATE FUNCTION/PROCEDURE statements in `sql`. Throws Error. */
  parsePlpgsql(sql: string): unknown[];
  /** The scanner's tokens. Throws Error. */
  scan(sql: string): ScanToken[];
}

let loading: Promise<Parser> | undefined;

/** The parser, loading the WebAssembly module once (concurrent callers share the load). */
export function loadParser(): Promise<Parser> {
  loading ??= (async () => {
    const imported = (await import('libpg-query')) as unknown as Module & { default?: Module };
    const mod = typeof imported.parseSync === 'function' ? imported : (imported.default as Module);
    await mod.loadModule();
    return {
      parse: (sql) => {
        // libpg-query refuses '' itself; PostgreSQL treats it as an empty query.
        if (sql === '') return { stmts: [] };
        try {
          const result = mod.parseSync(sql);
          return { stmts: result.stmts ?? [] };
        } catch (error) {
          throw syntaxError(error);
        }
      },
      parsePlpgsql: (sql) => mod.parsePlPgSQLSync(sql).plpgsql_funcs ?? [],
      scan: (sql) => mod.scanSync(sql).tokens,
    };
  })();
  // A failed load is retried by the next call rather than cached.
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}

function syntaxError(error: unknown): SqlSyntaxError {
  const e = error as { message?: string; sqlDetails?: { cursorPosition?: number } };
  const cursor = e.sqlDetails?.cursorPosition;
  // libpg-query reports PostgreSQL's 1-based character position minus one.
  return new SqlSyntaxError(
    e.message ?? String(error),
    cursor === undefined ? undefined : String(cursor + 1),
  );
}

/** The text of statement `raw` within `text` (offsets are UTF-8 bytes). */
export function statementText(text: string, raw: RawStmt): string {
  const bytes = Buffer.from(text, 'utf8');
  const start = raw.stmt_location ?? 0;
  const end = raw.stmt_len ? start + raw.stmt_len : bytes.length;
  return bytes.subarray(start, end).toString('utf8');
}
