/**
 * The database file's health, read-only (sqlite.org/pragma.html): PRAGMA quick_check (or the
 * slower integrity_check, which also checks index contents and UNIQUE constraints), the first
 * problems it reports; foreign key violations (foreign_key_check); page size, page count and
 * free pages; journal and auto-vacuum modes; and the largest tables and indexes with their unused
 * bytes from the dbstat virtual table (sqlite.org/dbstat.html) when the library has it.
 */
import type Database from 'better-sqlite3';
import type { HealthReport } from './protocol.js';

/** Problems listed at most (integrity_check(N) stops after N). */
const MAX_PROBLEMS = 20;
/** Objects listed from dbstat. */
const MAX_OBJECTS = 10;

export function healthReport(db: Database.Database, full: boolean): HealthReport {
  const pragma = (sql: string) => {
    const stmt = db.prepare(sql);
    stmt.safeIntegers(false);
    return stmt;
  };
  const check = full ? 'integrity_check' : 'quick_check';
  // A page too damaged to read stops the check itself with SQLITE_CORRUPT: that is its finding.
  const attempt = <T>(fn: () => T, failed: (message: string) => T): T => {
    try {
      return fn();
    } catch (error) {
      return failed(`${(error as Error).message} (${(error as { code?: string }).code ?? 'error'})`);
    }
  };
  const problems = attempt(
    () => (pragma(`PRAGMA ${check}(${MAX_PROBLEMS})`).pluck().all() as string[]).filter((p) => p !== 'ok'),
    (message) => [`${check} stopped: ${message}`],
  );
  const fk = attempt(
    () =>
      pragma('SELECT "table", parent FROM pragma_foreign_key_check LIMIT 1000').all() as {
        table: string;
        parent: string;
      }[],
    (message) => {
      problems.push(`foreign_key_check stopped: ${message}`);
      return [];
    },
  );
  const one = (name: string) => pragma(`PRAGMA ${name}`).pluck().get() as number | string;
  const report: HealthReport = {
    check,
    problems,
    foreignKeyViolations: fk.length,
    foreignKeyTables: [...new Set(fk.map((r) => `${r.table} → ${r.parent}`))].slice(0, MAX_PROBLEMS),
    pageSize: Number(one('page_size')),
    pageCount: Number(one('page_count')),
    freelistCount: Number(one('freelist_count')),
    journalMode: String(one('journal_mode')),
    autoVacuum: ['none', 'full', 'incremental'][Number(one('auto_vacuum'))] ?? 'unknown',
    objects: [],
  };
  try {
    report.objects = pragma(
      `SELECT name, count(*) AS pages, sum(pgsize) AS bytes, sum(unused) AS unused FROM dbstat
        GROUP BY name ORDER BY sum(pgsize) DESC LIMIT ${MAX_OBJECTS}`,
    ).all() as HealthReport['objects'];
  } catch {
    report.objects = null;
  }
  return report;
}
