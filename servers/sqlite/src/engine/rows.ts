/**
 * Reading one bounded page of a statement's rows (engine side): skip `offset` rows, then keep rows
 * until the row or byte budget is reached, stepping the statement row by row so memory stays flat
 * however large the result is. One row beyond the page is read to know that more exist.
 */
import type { Statement } from 'better-sqlite3';
import { type Cell, encodeValue, type StorageClass, storageClass } from '../values.js';
import type { Budget, RowsResult } from './protocol.js';

/** Called every few thousand rows so a long skip or scan can notice that the server has gone. */
export type Heartbeat = () => void;

const HEARTBEAT_ROWS = 4096;

function encodeRow(raw: unknown[], maxCellBytes: number): { cells: Cell[]; bytes: number } {
  const cells = raw.map((v) => encodeValue(v, maxCellBytes));
  return { cells, bytes: Buffer.byteLength(JSON.stringify(cells), 'utf8') + 1 };
}

/**
 * One page of `stmt` (a reader) run with `bind`. Rows come back as arrays of cells in column order
 * (column names may repeat, e.g. `SELECT 1 AS a, 2 AS a`). A single row larger than the byte budget
 * is still returned, with its TEXT/BLOB cells cut further so it fits.
 */
export function readPage(
  stmt: Statement,
  bind: unknown[],
  offset: number,
  budget: Budget,
  heartbeat: Heartbeat,
): RowsResult {
  stmt.raw(true);
  stmt.safeIntegers(true);
  const columns = stmt.columns().map((c) => c.name);
  const classes = columns.map(() => new Set<StorageClass>());
  const rows: Cell[][] = [];
  let bytes = 0;
  let truncated = false;
  let stoppedBy: RowsResult['stoppedBy'];
  const iterator = stmt.iterate(...bind) as IterableIterator<unknown[]>;
  try {
    for (let skipped = 0; skipped < offset; skipped++) {
      if (skipped % HEARTBEAT_ROWS === 0) heartbeat();
      if (iterator.next().done) return { columns, rows, storageClasses: columns.map(() => ''), truncated };
    }
    for (;;) {
      if (rows.length % HEARTBEAT_ROWS === 0) heartbeat();
      const next = iterator.next();
      if (next.done) break;
      if (rows.length >= budget.maxRows) {
        truncated = true;
        stoppedBy = 'rows';
        break;
      }
      let encoded = encodeRow(next.value, budget.maxCellBytes);
      if (rows.length === 0 && encoded.bytes > budget.maxBytes) {
        const perCell = Math.max(64, Math.floor(budget.maxBytes / Math.max(1, columns.length) / 2));
        encoded = encodeRow(next.value, perCell);
      } else if (bytes + encoded.bytes > budget.maxBytes) {
        truncated = true;
        stoppedBy = 'bytes';
        break;
      }
      rows.push(encoded.cells);
      bytes += encoded.bytes;
      next.value.forEach((v, i) => {
        classes[i]?.add(storageClass(v));
      });
    }
  } finally {
    iterator.return?.();
  }
  return {
    columns,
    rows,
    storageClasses: classes.map((set) => [...set].sort().join('|')),
    truncated,
    ...(stoppedBy ? { stoppedBy } : {}),
  };
}
