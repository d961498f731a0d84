/**
 * A tokenizer for SQLite's SQL dialect, following the rules of SQLite's own tokenizer
 * (sqlite/src/tokenize.c, `sqlite3GetToken`): whitespace, `--` and `/* *\/` comments (an
 * unterminated block comment runs to the end), '…' strings, "…" / `…` / […] quoted identifiers
 * (a doubled quote escapes it), x'…' blob literals, numbers, `?`, `?NNN`, `:name`, `@name`, `$name`
 * parameters (TCL-style `$a::b(c)` names are compiled out of better-sqlite3: SQLITE_OMIT_TCL_VARIABLE),
 * and bare words (keywords or identifiers; bytes ≥ 0x80 are identifier characters).
 *
 * It never decides what SQL means: the statement policy uses it only to find a statement's leading
 * keywords (which by SQLite's grammar, parse.y `cmd ::= …`, fix the statement's kind) and its
 * parameters. Everything else is decided by SQLite when the statement is prepared and run.
 */

export type TokenType =
  | 'space'
  | 'comment'
  /** A bare word: a keyword or an unquoted identifier. */
  | 'word'
  /** A quoted identifier: "x", `x` or [x]. */
  | 'quoted'
  | 'string'
  | 'blob'
  | 'number'
  | 'variable'
  | 'semicolon'
  | 'operator'
  /** Text SQLite's tokenizer also rejects (unterminated quote, stray character); prepare() will fail. */
  | 'illegal';

export interface Token {
  type: TokenType;
  /** The token's source text. */
  text: string;
  /** Offset of the token in the SQL text (UTF-16 code units). */
  start: number;
}

const SPACE = new Set([' ', '\t', '\n', '\f', '\r']);
const SINGLE = new Set(['(', ')', '+', '*', '%', ',', '&', '~', '.']);

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

/** SQLite's identifier characters (sqlite3IsIdChar): letters, digits, `_`, `$`, and any non-ASCII. */
function isIdChar(c: string | undefined): boolean {
  if (c === undefined) return false;
  return /[A-Za-z0-9_$]/.test(c) || c.charCodeAt(0) >= 0x80;
}

/** Characters that may start a bare word: letters, `_`, and any non-ASCII. */
function isIdStart(c: string | undefined): boolean {
  if (c === undefined) return false;
  return /[A-Za-z_]/.test(c) || c.charCodeAt(0) >= 0x80;
}

/** End (exclusive) of a quoted run starting at `i` (the opening quote), or -1 when unterminated. */
function quotedEnd(sql: string, i: number, close: string): number {
  let j = i + 1;
  while (j < sql.length) {
    if (sql[j] === close) {
      // A doubled closing quote is an escaped quote (not for [...], which cannot contain "]").
      if (close !== ']' && sql[j + 1] === close) {
        j += 2;
        continue;
      }
      return j + 1;
    }
    j++;
  }
  return -1;
}

function numberEnd(sql: string, i: number): number {
  let j = i;
  if (sql[j] === '0' && (sql[j + 1] === 'x' || sql[j + 1] === 'X') && /[0-9a-fA-F]/.test(sql[j + 2] ?? '')) {
    j += 2;
    while (/[0-9a-fA-F_]/.test(sql[j] ?? '')) j++;
  } else {
    while (isDigit(sql[j]) || sql[j] === '_') j++;
    if (sql[j] === '.') {
      j++;
      while (isDigit(sql[j]) || sql[j] === '_') j++;
    }
    if (
      (sql[j] === 'e' || sql[j] === 'E') &&
      (isDigit(sql[j + 1]) || (/[+-]/.test(sql[j + 1] ?? '') && isDigit(sql[j + 2])))
    ) {
      j += 2;
      while (isDigit(sql[j])) j++;
    }
  }
  // "123abc" is one illegal token in SQLite; keep it together so it is not read as a number + word.
  while (isIdChar(sql[j])) j++;
  return j;
}

/** One token starting at `i`. */
function tokenAt(sql: string, i: number): { type: TokenType; end: number } {
  const c = sql[i] as string;
  const next = sql[i + 1];
  if (SPACE.has(c)) {
    let j = i + 1;
    while (j < sql.length && SPACE.has(sql[j] as string)) j++;
    return { type: 'space', end: j };
  }
  if (c === '-' && next === '-') {
    const nl = sql.indexOf('\n', i + 2);
    return { type: 'comment', end: nl === -1 ? sql.length : nl + 1 };
  }
  if (c === '/' && next === '*') {
    const close = sql.indexOf('*/', i + 2);
    return { type: 'comment', end: close === -1 ? sql.length : close + 2 };
  }
  if (c === ';') return { type: 'semicolon', end: i + 1 };
  if (c === "'" || c === '"' || c === '`') {
    const end = quotedEnd(sql, i, c);
    if (end === -1) return { type: 'illegal', end: sql.length };
    return { type: c === "'" ? 'string' : 'quoted', end };
  }
  if (c === '[') {
    const end = quotedEnd(sql, i, ']');
    return end === -1 ? { type: 'illegal', end: sql.length } : { type: 'quoted', end };
  }
  if ((c === 'x' || c === 'X') && next === "'") {
    const end = quotedEnd(sql, i + 1, "'");
    return end === -1 ? { type: 'illegal', end: sql.length } : { type: 'blob', end };
  }
  if (isDigit(c) || (c === '.' && isDigit(next))) return { type: 'number', end: numberEnd(sql, i) };
  if (c === '?') {
    let j = i + 1;
    while (isDigit(sql[j])) j++;
    return { type: 'variable', end: j };
  }
  if (c === ':' || c === '@' || c === '$' || c === '#') {
    let j = i + 1;
    while (isIdChar(sql[j])) j++;
    return { type: j === i + 1 ? 'illegal' : 'variable', end: j };
  }
  if (isIdStart(c)) {
    let j = i + 1;
    while (isIdChar(sql[j])) j++;
    return { type: 'word', end: j };
  }
  if (SINGLE.has(c)) return { type: 'operator', end: i + 1 };
  // Two-character operators: -> ->> == <= >= <> != << >> ||
  const two = sql.slice(i, i + 2);
  if (two === '->') return { type: 'operator', end: sql[i + 2] === '>' ? i + 3 : i + 2 };
  if (['==', '<=', '>=', '<>', '!=', '<<', '>>', '||'].includes(two)) return { type: 'operator', end: i + 2 };
  if (['-', '/', '=', '<', '>', '|'].includes(c)) return { type: 'operator', end: i + 1 };
  return { type: 'illegal', end: i + 1 };
}

/** Every token of `sql`, whitespace and comments included, in order. */
export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const { type, end } = tokenAt(sql, i);
    tokens.push({ type, text: sql.slice(i, end), start: i });
    i = end;
  }
  return tokens;
}

/** The tokens that carry meaning: no whitespace, no comments. */
export function significantTokens(sql: string): Token[] {
  return tokenize(sql).filter((t) => t.type !== 'space' && t.type !== 'comment');
}

/** The upper-cased keyword a bare word spells, or undefined for any other token. */
export function keyword(token: Token | undefined): string | undefined {
  return token?.type === 'word' ? token.text.toUpperCase() : undefined;
}

/** The name an identifier-like token stands for: a bare word as is, a quoted one unquoted. */
export function identifierText(token: Token | undefined): string | undefined {
  if (!token) return undefined;
  if (token.type === 'word') return token.text;
  if (token.type === 'quoted' || token.type === 'string') {
    const open = token.text[0] as string;
    const body = token.text.slice(1, -1);
    if (open === '[') return body;
    return body.split(open + open).join(open);
  }
  return undefined;
}
