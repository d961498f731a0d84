/**
 * Spreadsheets (.xlsx, .xls, .ods, .csv) → per sheet a bounded Markdown table with the sheet's name
 * and used range, through SheetJS (the community edition as republished on npm as @e965/xlsx,
 * 0.20.3; the `xlsx` package on npm stopped at 0.18.5). `sheetRows` stops parsing each sheet at the
 * rows a call can return, so a large sheet is not materialised; formulas are never evaluated (the
 * value the file cached is shown).
 */
import { PartCollector } from './collect.js';
import { ExtractError, parserReason } from './errors.js';
import { markdownTable } from './text-docs.js';
import type { ExtractedDocument, ExtractRequest } from './types.js';

/** Widest row shown: columns past it are cut, with a note. */
const MAX_COLUMNS = 50;

export async function extractSheets(request: ExtractRequest): Promise<ExtractedDocument> {
  const XLSX = await import('@e965/xlsx');
  const startOffset = request.start.offset;
  // Rows to parse per sheet: enough to skip to the start offset and fill a call's row budget.
  const sheetRows = startOffset + request.limits.maxRows + 1;
  let workbook: ReturnType<typeof XLSX.read>;
  try {
    workbook = XLSX.read(request.bytes, {
      type: 'buffer',
      dense: true,
      sheetRows,
      cellFormula: false,
      cellHTML: false,
      cellStyles: false,
      cellText: true,
      cellDates: true,
      bookVBA: false,
      WTF: false,
      ...(request.kind === 'csv' ? { raw: false } : {}),
    } as Parameters<typeof XLSX.read>[1]);
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    if (/password|encrypt/i.test(message))
      throw new ExtractError('encrypted', 'it is password-protected (encrypted)');
    throw new ExtractError('corrupt', `it is not a readable spreadsheet (${parserReason(error)})`);
  }
  const names = workbook.SheetNames;
  const last = Math.min(request.lastPart ?? names.length, names.length);
  const collect = new PartCollector(request.limits, request.start, last, 'sheet');
  for (let number = request.start.part; number <= last && collect.open; number++) {
    if (!collect.admit(number)) break;
    const name = names[number - 1] as string;
    const sheet = workbook.Sheets[name];
    const fullRef = (sheet?.['!fullref'] as string | undefined) ?? (sheet?.['!ref'] as string | undefined);
    const part = { number, name, ...(fullRef ? { range: fullRef } : {}) };
    if (!sheet || !fullRef) {
      collect.addTable({ ...part, empty: 'empty sheet' }, '', 0, false);
      continue;
    }
    const full = XLSX.utils.decode_range(fullRef);
    const parsed = XLSX.utils.decode_range(sheet['!ref'] as string);
    const totalRows = full.e.r - full.s.r + 1;
    const offset = collect.offsetOf(number);
    const firstRow = full.s.r + offset;
    const lastCol = Math.min(full.e.c, full.s.c + MAX_COLUMNS - 1);
    const header = ['row'];
    for (let c = full.s.c; c <= lastCol; c++) header.push(XLSX.utils.encode_col(c));
    const rows: string[][] = [header];
    let bytes = 0;
    const dense = (sheet['!data'] ?? []) as Array<Array<{ w?: string; v?: unknown } | undefined> | undefined>;
    let r = firstRow;
    for (; r <= Math.min(full.e.r, parsed.e.r) && rows.length - 1 < collect.rowsLeft; r++) {
      const row = [String(r + 1)];
      const cells = dense[r] ?? [];
      for (let c = full.s.c; c <= lastCol; c++) {
        const value = cells[c];
        row.push(value ? (value.w ?? (value.v === undefined ? '' : String(value.v))) : '');
      }
      bytes += row.reduce((n, v) => n + v.length + 3, 0);
      rows.push(row);
      if (bytes > collect.bytesLeft) {
        r++;
        break;
      }
    }
    const shown = rows.length - 1;
    const more = r <= full.e.r;
    const cut = full.e.c > lastCol ? ` (columns after ${XLSX.utils.encode_col(lastCol)} not shown)` : '';
    collect.addTable(
      { ...part, rows: totalRows, ...(cut ? { empty: cut.trim() } : {}) },
      shown ? markdownTable(rows) : '',
      shown,
      more,
    );
  }
  return collect.result(request.kind, names.length);
}
