/**
 * Bound parameters: which placeholders a statement has, and turning the tool's `params` (JSON)
 * into values better-sqlite3 binds exactly.
 *
 * Placeholders (sqlite.org/lang_expr.html#varparam): `?` (next number), `?NNN` (number NNN),
 * `:name` / `@name` / `$name` (named). better-sqlite3 binds an array to `?` placeholders and an object
 * to named ones (keys without the prefix; `?NNN` by the key "NNN").
 */
import { significantTokens } from './tokenize.js';

/** A parameter value as the tool accepts it (JSON). */
export type ParamValue = string | number | boolean | null | { base64: string } | { integer: string };

/** What better-sqlite3 binds. */
export type BindValue = string | number | bigint | Buffer | null;

export interface Placeholders {
  /** Count of bare `?`. */
  anonymous: number;
  /** Largest NNN of `?NNN` (0 when none). */
  maxNumbered: number;
  /** Named placeholders (without the prefix character), in order of first use. */
  named: string[];
}

/** An error in `params` (count or shape); its message names `params` and what was expected. */
export class ParamsError extends Error {
  override name = 'ParamsError';
}

/** The placeholders of `sql` (string literals and comments excluded, as SQLite's tokenizer does). */
export function placeholders(sql: string): Placeholders {
  const result: Placeholders = { anonymous: 0, maxNumbered: 0, named: [] };
  for (const t of significantTokens(sql)) {
    if (t.type !== 'variable') continue;
    if (t.text === '?') result.anonymous++;
    else if (t.text.startsWith('?'))
      result.maxNumbered = Math.max(result.maxNumbered, Number(t.text.slice(1)));
    else if (!result.named.includes(t.text.slice(1))) result.named.push(t.text.slice(1));
  }
  return result;
}

/** SQLite's INTEGER range: a signed 64-bit integer (sqlite.org/datatype3.html). */
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Why `text` is not a 64-bit integer in decimal digits (the `{"integer": …}` parameter form), or
 * undefined when it is one: a wrong form and a value out of range are told apart.
 */
export function int64Problem(text: string): string | undefined {
  if (!/^-?\d+$/.test(text)) return 'decimal digits expected, e.g. "-9007199254740993"';
  const value = BigInt(text);
  if (value < INT64_MIN || value > INT64_MAX)
    return `${text.length > 40 ? `${text.slice(0, 40)}…` : text} is out of the 64-bit integer range (${INT64_MIN} to ${INT64_MAX}) that SQLite INTEGER holds`;
  return undefined;
}

/** One JSON parameter → the value to bind (integers as BigInt so SQLite stores INTEGER, not REAL). */
export function toBindValue(value: ParamValue, where: string): BindValue {
  if (value === null || typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 1n : 0n;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new ParamsError(`${where}: numbers must be finite`);
    if (Number.isInteger(value)) {
      if (!Number.isSafeInteger(value)) {
        throw new ParamsError(
          `${where}: ${value} is beyond ±2^53 and would lose digits; pass it as {"integer": "<decimal digits>"}`,
        );
      }
      return BigInt(value);
    }
    return value;
  }
  if ('base64' in value) return Buffer.from(value.base64, 'base64');
  const problem = int64Problem(value.integer);
  if (problem) throw new ParamsError(`${where}.integer: ${problem}`);
  return BigInt(value.integer);
}

function describe(p: Placeholders): string {
  const parts: string[] = [];
  if (p.anonymous) parts.push(`${p.anonymous} "?"`);
  if (p.maxNumbered) parts.push(`"?1"…"?${p.maxNumbered}"`);
  if (p.named.length) parts.push(p.named.map((n) => `"${n}"`).join(', '));
  return parts.join(' and ');
}

/**
 * The arguments to pass to better-sqlite3's run/iterate for `sql` with `params` (array for `?` and
 * `?NNN`, object for named placeholders). Throws ParamsError saying how many values were expected
 * when the count or kind does not match.
 */
export function bindArguments(
  sql: string,
  params: ParamValue[] | Record<string, ParamValue> | undefined,
): BindValue[] | [Record<string, BindValue>] {
  const p = placeholders(sql);
  const kinds = [p.anonymous > 0, p.maxNumbered > 0, p.named.length > 0].filter(Boolean).length;
  if (kinds > 1) {
    throw new ParamsError(
      `params: the query mixes placeholder styles (${describe(p)}); use only "?" (values in params) or only named ones like :name (values in named_params)`,
    );
  }
  if (p.named.length) {
    if (params === undefined || Array.isArray(params)) {
      throw new ParamsError(
        `params: the query has named placeholders (${describe(p)}): pass named_params, one {name, value} for each (name without the : @ $ prefix)`,
      );
    }
    const keys = Object.keys(params);
    const missing = p.named.filter((n) => !keys.includes(n));
    const extra = keys.filter((k) => !p.named.includes(k));
    if (missing.length || extra.length) {
      throw new ParamsError(
        `params: expected exactly the keys ${p.named.map((n) => `"${n}"`).join(', ')}` +
          `${missing.length ? `; missing ${missing.join(', ')}` : ''}${extra.length ? `; unknown ${extra.join(', ')}` : ''}`,
      );
    }
    const bound: Record<string, BindValue> = {};
    for (const k of keys) bound[k] = toBindValue(params[k] as ParamValue, `params.${k}`);
    return [bound];
  }
  const expected = p.anonymous || p.maxNumbered;
  const given = params === undefined ? [] : params;
  if (!Array.isArray(given)) {
    throw new ParamsError(
      expected
        ? `params: the query has ${expected} positional placeholder(s) ("?"): pass params as an array of ${expected} value(s)`
        : 'params: the query has no placeholders; omit params',
    );
  }
  if (given.length !== expected) {
    throw new ParamsError(
      `params: expected ${expected} value(s) for the query's placeholders${expected ? ` (${describe(p)})` : ''}, got ${given.length}`,
    );
  }
  const values = given.map((v, i) => toBindValue(v, `params[${i}]`));
  if (p.maxNumbered) {
    const bound: Record<string, BindValue> = {};
    values.forEach((v, i) => {
      bound[String(i + 1)] = v;
    });
    return [bound];
  }
  return values;
}
