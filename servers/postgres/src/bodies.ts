/**
 * Function and procedure definitions (CREATE [OR REPLACE] FUNCTION/PROCEDURE, docs
 * sql-createfunction.html, sql-createprocedure.html): the language, and the body parsed and checked
 * like the call's own SQL, so a definition cannot smuggle in what a call may not run.
 *
 * - Languages: only `sql` and `plpgsql` (reach-rules.ts `languageRule`).
 * - SQL bodies: a quoted body is parsed by PostgreSQL's parser; a `BEGIN ATOMIC …` / `RETURN …`
 *   body is already part of the statement's tree.
 * - PL/pgSQL bodies: parsed by PL/pgSQL's own grammar (libpg_query's pl_gram.y), then every
 *   embedded SQL statement and expression (PLpgSQL_expr, docs plpgsql-implementation.html) is
 *   parsed by the SQL parser the way PL/pgSQL does it (an expression as `SELECT expr`, an
 *   assignment's right-hand side likewise).
 * - Strings inside a body (what `EXECUTE '…'` or `EXECUTE format('…', …)` would run) are parsed as
 *   SQL too; one that is not SQL is data. `format()` placeholders (%I, %L, %s) are filled in with
 *   stand-ins first, so `format('COPY %I TO PROGRAM %L', …)` is seen as COPY … PROGRAM.
 * What cannot be parsed is refused: what cannot be read cannot be checked. SQL assembled at run
 * time from pieces (`'pg_read' || '_file'`) stays invisible (README, security model).
 */

import type { ParseResult } from './parser.js';
import { languageRule, Refusal } from './reach-rules.js';
import type { Scope } from './scope.js';
import { walk } from './tree.js';

/** Definitions nested in strings in bodies, deeper than this, are refused rather than checked. */
const MAX_DEPTH = 4;
/** Strings parsed per call; a body with more is refused (a parse costs ~30 µs). */
const MAX_STRINGS = 2000;

/** PL/pgSQL's RawParseMode values (src/include/parser/parser.h) for PLpgSQL_expr.parseMode. */
const PARSE_DEFAULT = 0;
const PARSE_TYPE_NAME = 1;
const PARSE_EXPRESSION = 2;

/**
 * Checks one CreateFunctionStmt node; `statement` gives the text of the whole CREATE statement
 * (PL/pgSQL's parser needs it). Throws Refusal.
 */
export function checkRoutine(node: Record<string, unknown>, statement: () => string, scope: Scope): void {
  const options = Array.isArray(node.options) ? node.options : [];
  const language = optionString(options, 'language') ?? (node.sql_body ? 'sql' : undefined);
  // Without a language PostgreSQL refuses the definition itself.
  if (language === undefined) return;
  const refused = languageRule(language);
  if (refused) throw new Refusal(refused, scope.depth > 0);
  const inner: Scope = { ...scope, depth: scope.depth + 1 };
  if (inner.depth > MAX_DEPTH) throw tooDeep();
  // A BEGIN ATOMIC / RETURN body was walked with the statement; the strings in it were not.
  if (node.sql_body) checkStrings(node.sql_body, inner);
  const body = quotedBody(options);
  if (body === undefined) return;
  if (language.toLowerCase() === 'sql') checkSqlText(body, inner, 'the function body');
  else checkPlpgsql(statement(), inner);
}

/** The value of option `name` when it is a plain string (LANGUAGE x). */
function optionString(options: unknown[], name: string): string | undefined {
  for (const option of options) {
    const def = (option as { DefElem?: { defname?: string; arg?: { String?: { sval?: string } } } }).DefElem;
    if (def?.defname === name && typeof def.arg?.String?.sval === 'string') return def.arg.String.sval;
  }
  return undefined;
}

/** The text of `AS '…'` (the first item; C functions have two, and are refused before). */
function quotedBody(options: unknown[]): string | undefined {
  for (const option of options) {
    const def = (option as { DefElem?: { defname?: string; arg?: { List?: { items?: unknown[] } } } })
      .DefElem;
    if (def?.defname !== 'as') continue;
    const first = def.arg?.List?.items?.[0] as { String?: { sval?: string } } | undefined;
    return first?.String?.sval;
  }
  return undefined;
}

function tooDeep(): Refusal {
  return new Refusal(
    { reason: 'function definitions nested in strings too deep to check', source: 'sql-createfunction.html' },
    true,
  );
}

/** Parses `text` as SQL and checks it (and the strings in it); refuses what does not parse. */
function checkSqlText(text: string, scope: Scope, what: string): void {
  let parsed: ParseResult;
  try {
    parsed = scope.parser.parse(text);
  } catch (error) {
    throw new Refusal(
      {
        reason: `${what} could not be checked: ${(error as Error).message}`,
        source: 'sql-createfunction.html',
      },
      true,
    );
  }
  scope.check(parsed, text, scope);
  checkStrings(parsed, scope);
}

/** The PL/pgSQL body of the CREATE statement `statement`: every SQL statement and expression in it. */
function checkPlpgsql(statement: string, scope: Scope): void {
  let functions: unknown[];
  try {
    functions = scope.parser.parsePlpgsql(statement);
  } catch (error) {
    throw new Refusal(
      {
        reason: `the PL/pgSQL body could not be checked: ${(error as Error).message}`,
        source: 'plpgsql.html',
      },
      true,
    );
  }
  if (functions.length === 0)
    throw new Refusal({ reason: 'the PL/pgSQL body could not be checked', source: 'plpgsql.html' }, true);
  eachNamed(functions, 'PLpgSQL_expr', (expr) => {
    const query = expr.query;
    if (typeof query !== 'string') return;
    const sql = expressionSql(
      query,
      typeof expr.parseMode === 'number' ? expr.parseMode : PARSE_DEFAULT,
      scope,
    );
    if (sql !== undefined) checkSqlText(sql, scope, 'a PL/pgSQL statement');
  });
}

/**
 * A PLpgSQL_expr as a statement the SQL parser reads the way PL/pgSQL's own modes do
 * (src/backend/parser/gram.y, PLpgSQL_Expr / PLAssignStmt): a statement as is, an expression as
 * `SELECT expr`, an assignment `target := expr` as `SELECT expr`; undefined for a type name.
 */
function expressionSql(query: string, mode: number, scope: Scope): string | undefined {
  if (mode === PARSE_DEFAULT) return query;
  if (mode === PARSE_TYPE_NAME) return undefined;
  if (mode === PARSE_EXPRESSION) return `SELECT ${query}`;
  // RAW_PARSE_PLPGSQL_ASSIGN1..3: the target, then := or =, then the expression.
  let tokens: { end: number; text: string }[] = [];
  try {
    tokens = scope.parser.scan(query);
  } catch {
    // Unscannable: parsed whole below, and refused if that fails.
  }
  const assign = tokens.find((t) => t.text === ':=' || t.text === '=');
  if (!assign) return `SELECT ${query}`;
  return `SELECT ${Buffer.from(query, 'utf8').subarray(assign.end).toString('utf8')}`;
}

/**
 * The string constants of a body, parsed as SQL where they are SQL (what EXECUTE would run) and
 * checked one level deeper. A string that is not SQL is data.
 */
function checkStrings(tree: unknown, scope: Scope): void {
  const deeper: Scope = { ...scope, depth: scope.depth + 1 };
  eachNamed(tree, 'A_Const', (constant) => {
    const text = (constant.sval as { sval?: unknown } | undefined)?.sval;
    if (typeof text !== 'string' || !/\S/.test(text)) return;
    if (++scope.strings.parsed > MAX_STRINGS)
      throw new Refusal(
        {
          reason: `function bodies with more than ${MAX_STRINGS} strings are not checked`,
          source: 'sql-createfunction.html',
        },
        true,
      );
    for (const candidate of new Set([text, fillFormat(text)])) {
      let parsed: ParseResult;
      try {
        parsed = scope.parser.parse(candidate);
      } catch {
        continue;
      }
      if (parsed.stmts.length === 0) continue;
      if (deeper.depth > MAX_DEPTH) throw tooDeep();
      deeper.check(parsed, candidate, deeper);
      checkStrings(parsed, deeper);
    }
  });
}

/** `format()` placeholders (docs functions-string.html#FUNCTIONS-STRING-FORMAT) filled with stand-ins. */
function fillFormat(text: string): string {
  return text.replace(/%(?:\d+\$)?-?\d*([sIL%])/g, (_, kind: string) =>
    kind === '%' ? '%' : kind === 'L' ? "'x'" : 'x',
  );
}

/** Calls `fn` with the fields of every node named `name` in `tree`. */
function eachNamed(tree: unknown, name: string, fn: (fields: Record<string, unknown>) => void): void {
  walk(tree, (key, node) => {
    if (key === name) fn(node);
  });
}
