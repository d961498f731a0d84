/**
 * The two PostgreSQL servers under test: ours (built from servers/postgres) and the official
 * @modelcontextprotocol/server-postgres (a bench dependency). Both take the database URL as their
 * first argument.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { errorText } from '../measure.js';
import { BENCH_DIR, type ServerUnderTest, type Side } from '../servers.js';

function label(packageJson: string): string {
  const pkg = JSON.parse(readFileSync(packageJson, 'utf8')) as { name?: string; version?: string };
  return `${pkg.name ?? '?'} ${pkg.version ?? '?'}`;
}

/** Finds both servers; an absent one is returned with `missing` set, not thrown. */
export function locatePostgresServers(): Record<Side, ServerUnderTest> {
  const oursDir = resolve(BENCH_DIR, '../servers/postgres');
  const oursBin = join(oursDir, 'dist/index.js');
  let built = true;
  try {
    readFileSync(oursBin);
  } catch {
    built = false;
  }
  const ours: ServerUnderTest = {
    side: 'ours',
    label: label(join(oursDir, 'package.json')),
    bin: oursBin,
    ...(built ? {} : { missing: `not built (${oursBin} is missing)` }),
  };
  let official: ServerUnderTest;
  try {
    const pkgJson = createRequire(join(BENCH_DIR, 'package.json')).resolve(
      '@modelcontextprotocol/server-postgres/package.json',
    );
    official = { side: 'official', label: label(pkgJson), bin: join(dirname(pkgJson), 'dist/index.js') };
  } catch (error) {
    official = {
      side: 'official',
      label: '@modelcontextprotocol/server-postgres',
      bin: '',
      missing: `not installed: ${errorText(error)}`,
    };
  }
  return { ours, official };
}
