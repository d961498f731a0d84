/**
 * The statement guard: before anything is sent, the SQL is parsed by PostgreSQL's own parser
 * (parser.ts) and refused when
 * - it does not parse (the same syntax error PostgreSQL would give, SQLSTATE 42601);
 * - it holds more than one statement (the extended protocol refuses that too, as a second layer:
 *   "cannot insert multiple commands into a prepared statement");
 * - anything anywhere in its tree reaches outside the database (reach-rules.ts): a statement kind
 *   (COPY, LOAD, DO, SET ROLE, ALTER SYSTEM, CREATE EXTENSION, foreign data, subscriptions, …), a
 *   function named in any expression — select lists, WHERE, CTEs, sub-selects, defaults, CALL, or
 *   referenced by a trigger, cast, operator, aggregate or type — or a setting;
 * - it is transaction control (BEGIN, COMMIT, SAVEPOINT, …): each call is the server's transaction;
 * - it defines a function whose language or body is refused (bodies.ts).
 * It does not decide read-only-ness — PostgreSQL's READ ONLY transaction does. It does note what a
 * read call refuses although a READ ONLY transaction allows it (read-rules.ts: LOCK, VACUUM/ANALYZE,
 * CLUSTER, REINDEX, CHECKPOINT, advisory locks, transaction IDs, EXPLAIN of a write or of SELECT …
 * FOR UPDATE/SHARE), for the read tools to refuse (run.ts).
 *
 * Limits (README, security model): SQL assembled at run time inside a function body, and functions,
 * views or foreign tables the DBA already created, are not visible here; a least-privilege role is
 * what bounds those.
 */
import { checkRoutine } from './bodies.js';
import { loadParser, type ParseResult, type RawStmt, statementText } from './parser.js';
import { functionRule, NODE_RULES, Refusal, type Rule } from './reach-rules.js';
import {
  explainWriteRule,
  planLock,
  READ_NODE_RULES,
  type ReadRule,
  readFunctionRule,
} from './read-rules.js';
import type { Scope } from './scope.js';
import { walk } from './tree.js';

export { Refusal };

/** What the guard learnt about the one statement it let through. */
export interface Checked {
  /** Parse node type of the statement, e.g. "SelectStmt"; undefined for an empty one (only comments). */
  kind: string | undefined;
  /** A plain query (SELECT, VALUES, TABLE, WITH … SELECT; not SELECT INTO): PostgreSQL can run it as a cursor. */
  query: boolean;
  /**
   * Why a read call (READ ONLY transaction) must refuse the statement although PostgreSQL would run
   * it (read-rules.ts); absent when nothing in the statement's own tree calls for it.
   */
  readRule?: ReadRule;
  /**
   * What in the statement's tree takes a lock beyond a read's when PostgreSQL merely plans it (a
   * write's target, SELECT … FOR UPDATE/SHARE: read-rules.ts planLock), e.g. "UPDATE"; absent when
   * nothing does. explain_query, which plans the whole statement, refuses it on a read-only server;
   * an EXPLAIN statement in a read call is refused through readRule.
   */
  planLock?: string;
}

/** SQL already checked and let through (repeated statements, next pages), least recently used first. */
const passed = new Map<string, Checked>();
const CACHE_ENTRIES = 512;
/** Longer SQL is not cached (bounds the cache to ~4 MB). */
const CACHE_MAX_SQL = 8192;

/**
 * Parses and checks `sql`. Throws SqlSyntaxError (parser.ts) when it does not parse, Refusal when
 * it holds several statements or anything refused; returns what the statement is otherwise.
 * The verdict depends on the text alone, so statements that passed are remembered.
 */
export async function checkSql(sql: string): Promise<Checked> {
  const known = passed.get(sql);
  if (known) {
    passed.delete(sql);
    passed.set(sql, known);
    return known;
  }
  const parser = await loadParser();
  const parsed = parser.parse(sql);
  if (parsed.stmts.length > 1)
    throw new Refusal({
      reason: `one statement per call: this SQL holds ${parsed.stmts.length} statements`,
      source: 'protocol-flow.html#PROTOCOL-FLOW-EXT-QUERY',
      advice:
        'Send each statement in its own call (each call is sent with the extended protocol, which carries exactly one statement).',
    });
  const read: { rule?: Rule } = {};
  checkTree(parsed, sql, { parser, depth: 0, strings: { parsed: 0 }, check: checkTree, read });
  const stmt = parsed.stmts[0]?.stmt;
  const kind = stmt ? Object.keys(stmt)[0] : undefined;
  const select = kind === 'SelectStmt' ? (stmt?.SelectStmt as Record<string, unknown>) : undefined;
  const checked: Checked = { kind, query: select !== undefined && select.intoClause === undefined };
  if (read.rule) checked.readRule = read.rule;
  const locks = firstPlanLock(stmt);
  if (locks) checked.planLock = locks;
  // EXPLAIN (even without ANALYZE) plans its statement, taking the locks planning takes.
  const explained =
    kind === 'ExplainStmt' ? firstPlanLock((stmt?.ExplainStmt as Fields | undefined)?.query) : undefined;
  if (explained && !checked.readRule) checked.readRule = explainWriteRule(explained, 'query');
  if (sql.length <= CACHE_MAX_SQL) {
    passed.set(sql, checked);
    if (passed.size > CACHE_ENTRIES) passed.delete(passed.keys().next().value as string);
  }
  return checked;
}

type Fields = Record<string, unknown>;

/** The first thing in `tree` (anywhere: CTEs, sub-selects) that planning locks beyond a read (planLock). */
function firstPlanLock(tree: unknown): string | undefined {
  let found: string | undefined;
  walk(tree, (key, node) => {
    found ??= planLock(key, node);
  });
  return found;
}

/** Checks every statement of a parse result of `text` (throws Refusal). */
export function checkTree(parsed: ParseResult, text: string, scope: Scope): void {
  for (const raw of parsed.stmts) {
    walk(raw.stmt, (key, node) => checkNode(key, node, raw, text, scope));
  }
}

/**
 * Struct fields printed inline (a pointer to one node type, not a generic Node), by field name:
 * `ALTER ROLE/DATABASE … SET x` holds its VariableSetStmt as `setstmt`.
 */
const INLINE_NODES: Record<string, string> = { setstmt: 'VariableSetStmt' };

function checkNode(
  key: string,
  node: Record<string, unknown>,
  raw: RawStmt,
  text: string,
  scope: Scope,
): void {
  const inBody = scope.depth > 0;
  const type = INLINE_NODES[key] ?? key;
  const rule = NODE_RULES[type]?.(node);
  // In a body PostgreSQL refuses transaction control itself (and a string such as 'end' is data).
  if (rule && !(rule.transactionControl && inBody)) throw new Refusal(rule, inBody);
  const read = inBody ? undefined : scope.read;
  if (read && !read.rule) read.rule = READ_NODE_RULES[type]?.(node);
  for (const name of functionNames(key, node)) {
    const refused = functionRule(name);
    if (refused) throw new Refusal({ ...refused, reason: `${name}: ${refused.reason}` }, inBody);
    const readRule = read && !read.rule ? readFunctionRule(name) : undefined;
    if (read && readRule) read.rule = { ...readRule, reason: `${name}: ${readRule.reason}` };
  }
  if (key === 'CreateFunctionStmt') checkRoutine(node, () => statementText(text, raw), scope);
}

/**
 * Names of functions a node calls or refers to, whatever its form: a call (FuncCall, CALL's
 * `funccall`), a trigger or event trigger's function (`funcname`), a function, aggregate or
 * operator reference (ObjectWithArgs `objname`: GRANT, ALTER FUNCTION, CREATE CAST/TRANSFORM,
 * operator classes), a conversion (`func_name`), an access method handler (`handler_name`), and
 * support functions named in definitions (a DefElem whose value is a name: CREATE OPERATOR …
 * FUNCTION =, CREATE AGGREGATE … SFUNC =, CREATE TYPE … INPUT =).
 */
function functionNames(key: string, node: Record<string, unknown>): string[] {
  const names: string[] = [];
  // CreateFunctionStmt's funcname is the name being defined, not a call.
  if (key !== 'CreateFunctionStmt') lastName(node.funcname, names);
  lastName(node.objname, names);
  lastName(node.func_name, names);
  lastName(node.handler_name, names);
  if (key === 'DefElem') {
    const arg = node.arg as { TypeName?: { names?: unknown } } | undefined;
    lastName(arg?.TypeName?.names, names);
  }
  return names;
}

/** The last element of a qualified name (a list of String nodes), if `list` is one. */
function lastName(list: unknown, into: string[]): void {
  if (!Array.isArray(list) || list.length === 0) return;
  const last = list[list.length - 1] as { String?: { sval?: unknown } };
  const name = last?.String?.sval;
  if (typeof name === 'string') into.push(name);
}
