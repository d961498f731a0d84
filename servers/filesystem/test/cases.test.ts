/**
 * The handed path cases FS-01, FS-03, FS-04, FS-05 and FS-06 (../shared/cases/filesystem.md) exactly as
 * written, through the built server over stdio (shared/test/paths.*.test.ts covers the same rules at the
 * unit level). Every refused call is checked to have touched nothing outside.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Connection, callChecked, connect, resultText, serverBin, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './support.js';

let base: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir: base, cleanup } = await tempDir('refmcp-fs-cases-'));
});
afterAll(async () => {
  await cleanup?.();
});

describe('FS-01 prefix sibling', () => {
  it('a sibling whose name starts with the allowed name is outside; nothing read or written (also with a trailing slash)', async () => {
    const allowed = join(base, 'fs01', 'allowed');
    await mkdir(join(base, 'fs01', 'allowed_secrets'), { recursive: true });
    await mkdir(allowed);
    await writeFile(join(base, 'fs01', 'allowed_secrets', 'key.txt'), 'SECRET-KEY\n');
    for (const configured of [allowed, `${allowed}/`]) {
      const conn = await startServer([configured]);
      try {
        for (const [tool, args] of [
          ['read_text_file', { path: join(base, 'fs01', 'allowed_secrets', 'key.txt') }],
          ['list_directory', { path: join(base, 'fs01', 'allowed_secrets') }],
          ['write_file', { path: join(base, 'fs01', 'allowed-evil', 'x.txt'), content: 'x' }],
        ] as const) {
          const r = await callChecked(conn, tool, args);
          expect(r.isError, `${tool} with ${configured}`).toBe(true);
          expect(resultText(r)).toMatch(/outside the allowed directories/i);
          expect(resultText(r)).not.toContain('SECRET-KEY');
          expect(resultText(r)).not.toContain('key.txt\n');
        }
      } finally {
        await conn.close();
      }
    }
    expect(existsSync(join(base, 'fs01', 'allowed-evil'))).toBe(false);
  });
});

describe('FS-03 writing through links', () => {
  let conn: Connection;
  let allowed: string;
  let outside: string;
  beforeAll(async () => {
    allowed = join(base, 'fs03', 'allowed');
    outside = join(base, 'fs03', 'outside');
    await mkdir(allowed, { recursive: true });
    await mkdir(outside);
    await symlink(join(outside, 'created.txt'), join(allowed, 'new.txt')); // (a) dangling link to outside
    await symlink(outside, join(allowed, 'sub')); // (b) directory link to outside
    await writeFile(join(allowed, 'plain.txt'), 'plain\n');
    conn = await startServer([allowed]);
  });
  afterAll(async () => {
    await conn?.close();
  });

  it('write_file, create_directory and move_file create or change nothing under the outside directory', async () => {
    const calls = [
      ['write_file', { path: join(allowed, 'new.txt'), content: 'x' }],
      ['write_file', { path: join(allowed, 'sub', 'x.txt'), content: 'x' }],
      ['create_directory', { path: join(allowed, 'sub', 'd') }],
      ['move_file', { source: join(allowed, 'plain.txt'), destination: join(allowed, 'new.txt') }],
    ] as const;
    for (const [tool, args] of calls) {
      const r = await callChecked(conn, tool, args);
      expect(r.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
    }
    expect(await readdir(outside)).toEqual([]);
    expect(await readFile(join(allowed, 'plain.txt'), 'utf8')).toBe('plain\n');
  });

  it('(b) says access is denied, not that the parent directory does not exist', async () => {
    const r = await callChecked(conn, 'write_file', { path: join(allowed, 'sub', 'x.txt'), content: 'x' });
    expect(resultText(r)).toMatch(/access denied|outside the allowed directories/i);
    expect(resultText(r)).not.toMatch(/does not exist|no such file|ENOENT/i);
  });
});

describe('FS-04 the allowed directory is itself a symlink', () => {
  it('both spellings read; list_allowed_directories shows what was configured', async () => {
    const real = join(base, 'fs04', 'real');
    const alias = join(base, 'fs04', 'alias');
    await mkdir(real, { recursive: true });
    await writeFile(join(real, 'a.txt'), 'through either name\n');
    await symlink(real, alias);
    const conn = await startServer([alias]);
    try {
      for (const path of [join(alias, 'a.txt'), join(real, 'a.txt')]) {
        const r = await callChecked(conn, 'read_text_file', { path });
        expect(r.isError, path).toBeFalsy();
        expect(resultText(r)).toBe('through either name\n');
      }
      const dirs = resultText(await callChecked(conn, 'list_allowed_directories', {}));
      expect(dirs).toContain(alias);
    } finally {
      await conn.close();
    }
  });
});

describe('FS-05 relative paths', () => {
  it('started with cwd "/", a relative path resolves inside the allowed directory, never the cwd', async () => {
    const allowed = join(base, 'fs05');
    await mkdir(join(allowed, 'notes'), { recursive: true });
    await writeFile(join(allowed, 'notes', 'm.log'), 'log line\n');
    const bin = serverBin('filesystem');
    const conn = await connect({ command: bin.command, args: [...bin.args, allowed], cwd: '/' });
    try {
      const r = await callChecked(conn, 'read_text_file', { path: 'notes/m.log' });
      expect(r.isError).toBeFalsy();
      expect(resultText(r)).toBe('log line\n');
      // "etc/passwd" exists under the cwd "/", but relative paths never look there.
      const cwdFile = await callChecked(conn, 'read_text_file', { path: 'etc/passwd' });
      expect(cwdFile.isError).toBe(true);
      expect(resultText(cwdFile)).not.toContain('root:');
    } finally {
      await conn.close();
    }
  });
});

describe('FS-06 Unicode names', () => {
  it('listed names round-trip exactly into read_text_file and move_file; the NFC spelling finds the NFD directory', async () => {
    const allowed = join(base, 'fs06');
    const names = ['9.52.38\u202FAM.png', 'no\u00A0break.txt', 'rocket \u{1F680}.txt'];
    const nfd = 'Cafe\u0301'; // "Café" decomposed
    await mkdir(join(allowed, nfd), { recursive: true });
    for (const n of names) await writeFile(join(allowed, n), `content of ${n}\n`);
    await writeFile(join(allowed, nfd, 'menu.txt'), 'soup\n');
    const conn = await startServer([allowed]);
    try {
      const listed = await callChecked(conn, 'list_directory', { path: allowed });
      const entries = (listed.structuredContent as { entries: { name: string }[] }).entries.map(
        (e) => e.name,
      );
      expect(entries.sort()).toEqual([...names, nfd].sort());
      for (const n of names) {
        const r = await callChecked(conn, 'read_text_file', { path: join(allowed, n) });
        expect(r.isError, n).toBeFalsy();
        expect(resultText(r)).toBe(`content of ${n}\n`);
      }
      const moved = await callChecked(conn, 'move_file', {
        source: join(allowed, names[0] as string),
        destination: join(allowed, `moved ${names[0]}`),
      });
      expect(moved.isError).toBeFalsy();
      expect(await readFile(join(allowed, `moved ${names[0]}`), 'utf8')).toBe(`content of ${names[0]}\n`);
      const nfc = await callChecked(conn, 'read_text_file', {
        path: join(allowed, nfd.normalize('NFC'), 'menu.txt'),
      });
      expect(nfc.isError).toBeFalsy();
      expect(resultText(nfc)).toBe('soup\n');
    } finally {
      await conn.close();
    }
  });
});
