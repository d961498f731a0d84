/**
 * A Sheet's range as rows: Drive exports a Sheet's first tab as CSV (RFC 4180: quoted fields,
 * `""` for a quote, newlines inside quotes); an A1 range (`B2:D10`, `A:C`, `3:7`) picks rows and
 * columns out of it.
 */
import { ToolError } from '@refmcp/shared/server';

/** `csv` as rows of fields (RFC 4180). */
export function parseCsv(csv: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < csv.length; i++) {
    const c = csv[i] as string;
    if (quoted) {
      if (c === '"' && csv[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && csv[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** A column's letters (`A` = 0, `AA` = 26). */
function column(letters: string): number {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/** A parsed A1 range: 0-based, inclusive; undefined bounds are open. */
export interface A1Range {
  firstRow?: number;
  lastRow?: number;
  firstColumn?: number;
  lastColumn?: number;
}

const CELL = /^([A-Za-z]{1,3})?([1-9][0-9]{0,6})?$/;

/** `B2:D10`, `A:C`, `3:7` or `C5` as an {@link A1Range}. Errors: ToolError naming `range`. */
export function parseA1(range: string): A1Range {
  const bare = range.includes('!') ? range.slice(range.lastIndexOf('!') + 1) : range;
  const [from = '', to = from] = bare.trim().split(':');
  const a = CELL.exec(from);
  const b = CELL.exec(to);
  if (!a || !b || (!a[1] && !a[2]) || (!b[1] && !b[2]))
    throw new ToolError('range: not an A1 range (e.g. A1:C10, B:D or 2:20)');
  const out: A1Range = {};
  if (a[2]) out.firstRow = Number(a[2]) - 1;
  if (b[2]) out.lastRow = Number(b[2]) - 1;
  if (a[1]) out.firstColumn = column(a[1]);
  if (b[1]) out.lastColumn = column(b[1]);
  return out;
}

/** The rows and columns of `rows` inside `range`. */
export function selectRange(rows: string[][], range: A1Range): string[][] {
  return rows
    .slice(range.firstRow ?? 0, range.lastRow === undefined ? undefined : range.lastRow + 1)
    .map((r) =>
      r.slice(range.firstColumn ?? 0, range.lastColumn === undefined ? undefined : range.lastColumn + 1),
    );
}
