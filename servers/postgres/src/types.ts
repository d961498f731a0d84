/**
 * How values come back: exactly, never rounded. Each connection asks for text results and these
 * parsers turn PostgreSQL's text output into JSON values:
 * - bigint, numeric, money → strings (a JS number would round past 2^53 / 15 digits);
 * - smallint, integer, oid → numbers; real, double precision → numbers (PostgreSQL ≥ 12 prints the
 *   shortest exact form), or the strings "NaN", "Infinity", "-Infinity";
 * - date, time, timestamp(tz), interval → the text PostgreSQL printed (no time-zone shifting);
 * - bytea → base64 (the connection forces bytea_output = hex, docs datatype-binary.html);
 * - json, jsonb → the JSON value, or its text when a number in it would lose digits as a JS number;
 * - boolean → true/false; arrays of these → arrays; everything else → PostgreSQL's text.
 * Type OIDs: src/include/catalog/pg_type.dat in the PostgreSQL source.
 */
import type pg from 'pg';
import { loadedPg } from './pg-module.js';

type Parser = (text: string) => unknown;

const identity: Parser = (text) => text;
const integer: Parser = (text) => Number(text);
const float: Parser = (text) => {
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
};
const bool: Parser = (text) => text === 't' || text === 'true';
const bytea: Parser = (text) =>
  text.startsWith('\\x') ? Buffer.from(text.slice(2), 'hex').toString('base64') : text;

/** Numbers with more significant digits than a double keeps exactly (15 are always safe). */
const LONG_NUMBER = /-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/g;
function losesDigits(json: string): boolean {
  for (const m of json.matchAll(LONG_NUMBER)) {
    const digits = m[0]
      .replace(/[eE].*$/, '')
      .replace(/[-.]/g, '')
      .replace(/^0+/, '');
    if (digits.length > 15) return true;
  }
  return false;
}
/** json/jsonb: parsed, unless a number in it has more digits than a JS number holds exactly. */
export const json: Parser = (text) => (losesDigits(text) ? text : JSON.parse(text));

/** Element parsers by type OID. */
const SCALARS = new Map<number, Parser>([
  [16, bool],
  [17, bytea],
  [21, integer],
  [23, integer],
  [26, integer],
  [700, float],
  [701, float],
  [114, json],
  [3802, json],
]);

/** Array type OID → element type OID, for the arrays parsed into JSON arrays. */
const ARRAYS = new Map<number, number>([
  [1000, 16],
  [1001, 17],
  [1005, 21],
  [1007, 23],
  [1028, 26],
  [1021, 700],
  [1022, 701],
  [199, 114],
  [3807, 3802],
  [1016, 20],
  [1231, 1700],
  [791, 790],
  [1009, 25],
  [1015, 1043],
  [1014, 1042],
  [1003, 19],
  [2951, 2950],
  [1182, 1082],
  [1183, 1083],
  [1115, 1114],
  [1185, 1184],
  [1187, 1186],
  [1270, 1266],
]);

type ArrayParser = { create: (source: string, transform: Parser) => { parse: () => unknown[] } };

/** pg's array-literal parser (only ever called on rows, so pg is loaded by then). */
const parseArray = (source: string, transform: Parser): unknown[] =>
  (loadedPg().types.arrayParser as unknown as ArrayParser).create(source, transform).parse();

/** The parser for a column of type `oid` (text format). */
export function parserFor(oid: number): Parser {
  const scalar = SCALARS.get(oid);
  if (scalar) return scalar;
  const element = ARRAYS.get(oid);
  if (element !== undefined) {
    const each = SCALARS.get(element) ?? identity;
    return (text) => parseArray(text, (v) => (v === null ? null : each(v)));
  }
  return identity;
}

/** For pg's `types` option: every text value through {@link parserFor}. */
export const exactTypes = {
  getTypeParser: ((oid: number, format?: string) =>
    format === 'binary' ? identity : parserFor(oid)) as typeof pg.types.getTypeParser,
};

/** Names of the built-in types (format_type spelling), by OID; others are looked up in pg_type. */
const NAMES = new Map<number, string>([
  [16, 'boolean'],
  [17, 'bytea'],
  [18, '"char"'],
  [19, 'name'],
  [20, 'bigint'],
  [21, 'smallint'],
  [23, 'integer'],
  [25, 'text'],
  [26, 'oid'],
  [114, 'json'],
  [142, 'xml'],
  [600, 'point'],
  [650, 'cidr'],
  [700, 'real'],
  [701, 'double precision'],
  [705, 'unknown'],
  [790, 'money'],
  [829, 'macaddr'],
  [869, 'inet'],
  [1042, 'character'],
  [1043, 'character varying'],
  [1082, 'date'],
  [1083, 'time without time zone'],
  [1114, 'timestamp without time zone'],
  [1184, 'timestamp with time zone'],
  [1186, 'interval'],
  [1266, 'time with time zone'],
  [1560, 'bit'],
  [1562, 'bit varying'],
  [1700, 'numeric'],
  [2249, 'record'],
  [2278, 'void'],
  [2950, 'uuid'],
  [3614, 'tsvector'],
  [3615, 'tsquery'],
  [3802, 'jsonb'],
]);

/** The name of built-in type `oid` (arrays as "<element>[]"), or undefined for other types. */
export function builtinTypeName(oid: number): string | undefined {
  const name = NAMES.get(oid);
  if (name) return name;
  const element = ARRAYS.get(oid);
  const elementName = element === undefined ? undefined : NAMES.get(element);
  return elementName ? `${elementName}[]` : undefined;
}
