/**
 * Compact text for the insight tools' lists: one header line naming the columns (units in the
 * header, not in each cell), then one `|`-separated line per item; the last column may be free
 * text. A model reads it as it reads a CSV, at a fraction of the bytes of `key: value` lines.
 */

/** Rows under one header; cells are joined with `|` (a free-text last column may contain it). */
export function table(header: string[], rows: (string | number)[][]): string {
  return [header.join('|'), ...rows.map((r) => r.join('|'))].join('\n');
}

/**
 * Statement text on one line, cut at `maxChars` characters (at a word boundary when one is near)
 * with `…` marking the cut. Returns the text and whether it was cut.
 */
export function oneLine(text: string, maxChars: number): { text: string; cut: boolean } {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= maxChars) return { text: flat, cut: false };
  // Not between the two halves of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(flat.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
  const head = flat.slice(0, end);
  const space = head.lastIndexOf(' ');
  return { text: `${space > maxChars * 0.8 ? head.slice(0, space) : head}…`, cut: true };
}

/** A number for a table cell: whole above 100, else up to 2 decimals (0.5, not 0.50). */
export function num(n: number): string {
  return String(Math.abs(n) >= 100 ? Math.round(n) : Math.round(n * 100) / 100);
}

/** PostgreSQL's timestamptz text without fractional seconds. */
export function seconds(ts: string | null | undefined): string {
  return ts ? ts.replace(/\.\d+(?=[+-]\d\d(:?\d\d)?$|$)/, '') : 'unknown';
}
