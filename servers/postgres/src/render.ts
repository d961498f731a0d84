/**
 * The compact text form of a page of rows, for clients that read only text: a header, one line
 * per row with cells separated by " | ", and a status line. Cells are shown as data: NULL for
 * null, strings as they are (newlines, tabs and "|" escaped so a cell stays on its line), other
 * values as JSON. Columns are padded up to MAX_PAD characters.
 */
import type { Column } from './fetch.js';

const MAX_PAD = 24;

/** A character {@link cellText} escapes. */
const ESCAPED = /[\\\n\r\t|]/;

/** One cell as text. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return 'NULL';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  // Most cells hold nothing to escape: one scan instead of five replace passes.
  if (!ESCAPED.test(text)) return text;
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t')
    .replace(/\|/g, '\\|');
}

/** The table: header line, separator, rows; "(no columns)" for a statement without a result set. */
export function renderTable(columns: readonly Column[], rows: readonly unknown[][]): string {
  if (columns.length === 0) return '(no result columns)';
  const cells = rows.map((row) => row.map(cellText));
  const widths = columns.map((c, i) =>
    Math.min(MAX_PAD, Math.max(c.name.length, ...cells.map((r) => (r[i] ?? '').length))),
  );
  const line = (parts: string[]) =>
    parts
      .map((p, i) => (i === parts.length - 1 ? p : p.padEnd(widths[i] ?? 0)))
      .join(' | ')
      .trimEnd();
  const out = [line(columns.map((c) => c.name)), widths.map((w) => '-'.repeat(Math.max(1, w))).join('-+-')];
  for (const r of cells) out.push(line(r));
  return out.join('\n');
}
