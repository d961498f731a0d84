/**
 * search_file_contents through the built server over stdio: literal and regex search, context,
 * .gitignore, binary skip, include/exclude, per-file caps, ALL-05 pagination, a catastrophic regex
 * under the time budget, and symlinks leading outside.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  type Connection,
  callChecked,
  findDuplicates,
  followPages,
  resultText,
  tempDir,
} from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeTree } from './fixtures/trees.js';
import { startServer } from './support.js';

interface Match {
  path: string;
  line: number;
  column: number;
  text: string;
  before: string[];
  after: string[];
}
interface GrepResult {
  matches: Match[];
  filesSearched: number;
  filesWithMatches: number;
  cappedFiles: string[];
  skipped: { binary: number; tooLarge: number; unreadable: number; links: number };
  regexTimedOut: string[];
  timedOut?: boolean;
  nextCursor?: string;
}

let repo: string;
let conn: Connection;
let strict: Connection;
const cleanups: (() => Promise<void>)[] = [];

const MANY = Array.from({ length: 30 }, (_, i) => `entry ${i} marker`).join('\n');

beforeAll(async () => {
  const a = await tempDir('refmcp-grep-');
  const b = await tempDir('refmcp-grep-outside-');
  cleanups.push(a.cleanup, b.cleanup);
  repo = a.dir;
  writeTree(repo, {
    '.gitignore': '*.log\nbuild/\n',
    'src/app.ts':
      'import x from "y";\n// TODO(ann): split this\nconst a = 1;\nconst b = 2;\n// todo: lower case\nexport {};\n',
    'src/util.py': 'def f():\n    pass  # TODO(bob) typed\n',
    'build/out.js': '// TODO(generated)\n',
    'debug.log': 'TODO in a log\n',
    'docs/notes.md': 'nothing here\n',
    'many.txt': `${MANY}\n`,
    'evil.txt': `${'a'.repeat(40)}b\n`,
    'long.txt': `${'a'.repeat(50_000)}ZZZ\nshort\n`,
    'image.png': Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]),
      Buffer.from('TODO hidden in binary'),
    ]),
  });
  mkdirSync(join(repo, '.git'));
  writeFileSync(join(repo, '.git', 'HEAD'), 'TODO inside .git\n');
  writeFileSync(join(b.dir, 'leak.txt'), 'TODO leaked\n');
  symlinkSync(join(b.dir, 'leak.txt'), join(repo, 'src', 'leak-link.txt'));
  [conn, strict] = await Promise.all([startServer([repo]), startServer([repo, '--walk-timeout', '500'])]);
});

afterAll(async () => {
  await Promise.all([conn?.close(), strict?.close()]);
  for (const c of cleanups) await c();
});

const grep = async (c: Connection, args: Record<string, unknown>) => {
  const r = await callChecked(c, 'search_file_contents', { path: repo, ...args });
  return { r, s: r.structuredContent as unknown as GrepResult, text: resultText(r) };
};
const where = (s: GrepResult) => s.matches.map((m) => `${m.path.slice(repo.length + 1)}:${m.line}`);

describe('search_file_contents', () => {
  it('finds literal text case-insensitively with context lines, grep-style (adjacent context merged)', async () => {
    const { s, text } = await grep(conn, { pattern: 'todo', contextLines: 1, include: ['*.ts'] });
    expect(where(s)).toEqual(['src/app.ts:2', 'src/app.ts:5']);
    expect(s.matches[0]).toEqual({
      path: join(repo, 'src', 'app.ts'),
      line: 2,
      column: 4,
      text: '// TODO(ann): split this',
      before: ['import x from "y";'],
      after: ['const a = 1;'],
    });
    expect(text).toContain(
      `${join(repo, 'src', 'app.ts')}\n1-import x from "y";\n2:// TODO(ann): split this\n3-const a = 1;\n4-const b = 2;\n5:// todo: lower case\n6-export {};`,
    );
  });

  it('is case-sensitive on request, and takes the pattern literally (no regex meaning)', async () => {
    const cs = await grep(conn, { pattern: 'TODO(', caseSensitive: true });
    expect(where(cs.s)).toEqual(['src/app.ts:2', 'src/util.py:2']);
  });

  it('runs regular expressions with regex: true', async () => {
    const { s } = await grep(conn, { pattern: 'TODO\\((\\w+)\\)', regex: true, caseSensitive: true });
    expect(where(s)).toEqual(['src/app.ts:2', 'src/util.py:2']);
    expect(s.matches[1]?.column).toBe(13);
  });

  it('honours .gitignore and skips .git by default; respectGitignore: false searches them', async () => {
    const on = await grep(conn, { pattern: 'TODO' });
    expect(
      where(on.s).some((w) => w.startsWith('build/') || w.startsWith('debug.log') || w.startsWith('.git/')),
    ).toBe(false);
    const off = await grep(conn, { pattern: 'TODO', respectGitignore: false });
    expect(where(off.s)).toEqual(expect.arrayContaining(['build/out.js:1', 'debug.log:1', '.git/HEAD:1']));
  });

  it('skips binary files and says so', async () => {
    const { s, text } = await grep(conn, { pattern: 'hidden in binary', respectGitignore: false });
    expect(s.matches).toEqual([]);
    expect(s.skipped.binary).toBe(1);
    expect(text).toContain('No matches found');
    expect(text).toContain('skipped: 1 binary');
  });

  it('never reads through a symlink leading outside', async () => {
    const { s } = await grep(conn, { pattern: 'leaked' });
    expect(s.matches).toEqual([]);
    expect(s.skipped.links).toBe(1);
  });

  it('filters with include and exclude globs', async () => {
    const inc = await grep(conn, { pattern: 'TODO', include: ['*.py'] });
    expect(where(inc.s)).toEqual(['src/util.py:2']);
    const exc = await grep(conn, { pattern: 'TODO', exclude: ['src'] });
    expect(exc.s.matches).toEqual([]);
  });

  it('searches a single file when path is a file', async () => {
    const { s } = await grep(conn, { path: join(repo, 'src', 'util.py'), pattern: 'pass' });
    expect(s.matches.map((m) => [m.path, m.line])).toEqual([[join(repo, 'src', 'util.py'), 2]]);
  });

  it('caps matches per file and says so', async () => {
    const { s, text } = await grep(conn, { pattern: 'marker', maxPerFile: 4 });
    expect(s.matches).toHaveLength(4);
    expect(s.cappedFiles).toEqual([join(repo, 'many.txt')]);
    expect(text).toContain('more matches in this file not shown');
  });

  it('ALL-05: pages through matches (also inside one file) with no duplicates and nothing lost', async () => {
    const args = { pattern: 'marker', maxResults: 7, maxPerFile: 100 };
    const walk = await followPages(
      async (cursor: string | undefined) => (await grep(conn, { ...args, ...(cursor ? { cursor } : {}) })).s,
      (page) => page.nextCursor,
    );
    expect(walk.pages.length).toBe(5);
    const all = walk.pages.flatMap((p) => where(p));
    expect(findDuplicates(all, (w) => w)).toEqual([]);
    expect(all).toEqual(Array.from({ length: 30 }, (_, i) => `many.txt:${i + 1}`));
  });

  it('stops a catastrophic regex at the time budget, names the file and keeps serving', async () => {
    const { s, text } = await grep(strict, { pattern: '(a|aa)+\\1$', regex: true, include: ['evil.txt'] });
    expect(s.regexTimedOut).toEqual(['evil.txt']);
    expect(text).toMatch(/The regex ran out of time on evil\.txt \(skipped\): simplify the pattern/);
    const after = await grep(strict, { pattern: 'split this' });
    expect(where(after.s)).toEqual(['src/app.ts:2']);
  });

  it('says when a regex matched a line it saw only the start of ($ at the cut, breaker finding 4)', async () => {
    const { s, text } = await grep(conn, { pattern: '^a+$', regex: true, include: ['long.txt'] });
    expect(s.matches).toHaveLength(1);
    expect(s.matches[0]).toMatchObject({ line: 1, lineTruncated: true, lineLength: 50_003 });
    expect(text).toMatch(/^1:a+… \[line cut: the regex saw only its first 16384 of 50003 characters/m);
    // A match on a line within the cap carries no such mark.
    const short = await grep(conn, { pattern: '^short$', regex: true, include: ['long.txt'] });
    expect(short.s.matches[0]).not.toHaveProperty('lineTruncated');
    expect(short.text).not.toContain('line cut');
  });

  it('refuses an invalid regular expression, naming the argument', async () => {
    const { r, text } = await grep(conn, { pattern: '(unclosed', regex: true });
    expect(r.isError).toBe(true);
    expect(text).toMatch(/^pattern: not a valid regular expression/);
  });
});
