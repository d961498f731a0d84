/**
 * The floor: better-sqlite3 doing the same queries in-process, with no MCP, no JSON-RPC and no
 * engine process — what a program linking SQLite directly gets. It runs in its own Node process
 * (so its peak RSS is its own), loading the very better-sqlite3 our server depends on.
 */
import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { BENCH_DIR } from '../servers.js';

export interface FloorPoint {
  callsPerSec: number;
  p50: number;
}

export interface FloorScan {
  /** Time to the first `pageRows` rows of `SELECT * FROM items`, in ms. */
  firstPageMs: number;
  /** Peak RSS (VmHWM) of the floor process, in bytes. */
  peakRss?: number;
}

const SCRIPT = `
const Database = require(process.env.BS3);
const { readFileSync } = require('node:fs');
const db = new Database(process.env.DB, { readonly: true, fileMustExist: true });
const [mode, n, pageRows, rows] = process.argv.slice(1);
const out = {};
if (mode === 'point') {
  const stmt = db.prepare('SELECT * FROM items WHERE id = ?');
  for (let i = 0; i < 1000; i++) stmt.get(1 + ((i * 7919) % Number(rows)));
  const lat = [];
  const t0 = performance.now();
  for (let i = 0; i < Number(n); i++) {
    const s = performance.now();
    stmt.get(1 + ((i * 7919) % Number(rows)));
    lat.push(performance.now() - s);
  }
  out.callsPerSec = Number(n) / ((performance.now() - t0) / 1000);
  lat.sort((a, b) => a - b);
  out.p50 = lat[Math.floor(lat.length / 2)];
} else {
  const t0 = performance.now();
  const page = [];
  for (const row of db.prepare('SELECT * FROM items').iterate()) {
    page.push(row);
    if (page.length === Number(pageRows)) break;
  }
  JSON.stringify(page);
  out.firstPageMs = performance.now() - t0;
  const kb = /^VmHWM:\\s+(\\d+)/m.exec(readFileSync('/proc/self/status', 'utf8'));
  if (kb) out.peakRss = Number(kb[1]) * 1024;
}
process.stdout.write(JSON.stringify(out));
`;

async function runFloor(mode: 'point' | 'scan', db: string, n: number, pageRows: number, rows: number) {
  const bs3 = join(resolve(BENCH_DIR, '../servers/sqlite'), 'node_modules/better-sqlite3');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['-e', SCRIPT, mode, String(n), String(pageRows), String(rows)],
    { env: { ...process.env, BS3: bs3, DB: db }, timeout: 120_000 },
  );
  return JSON.parse(stdout) as Record<string, number>;
}

/** `n` point queries by primary key, one after another (the floor has no pipelining to do). */
export async function floorPoint(db: string, n: number, rows: number): Promise<FloorPoint> {
  const r = await runFloor('point', db, n, 0, rows);
  return { callsPerSec: r.callsPerSec ?? Number.NaN, p50: r.p50 ?? Number.NaN };
}

/** The first `pageRows` rows of `SELECT * FROM items` (stepped, then JSON-encoded), in a fresh process. */
export async function floorScan(db: string, pageRows: number): Promise<FloorScan> {
  const r = await runFloor('scan', db, 0, pageRows, 0);
  return { firstPageMs: r.firstPageMs ?? Number.NaN, ...(r.peakRss ? { peakRss: r.peakRss } : {}) };
}
