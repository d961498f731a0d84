/**
 * Write tools through the built server over stdio, on real temp directories: FS-07 (literal $ and CRLF in
 * edit_file), FS-08 (move never overwrites), FS-12 (mkdir -p), FS-13 (mode kept), dry runs writing nothing,
 * and the annotations each tool declares.
 */
import {
  chmod,
  chown,
  lstat,
  mkdir,
  readdir,
  readFile,
  readlink,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import type { Connection } from '@refmcp/test-harness';
import { callChecked, resultText, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOBODY, startServer, startUnprivileged } from './support.js';

let conn: Connection;
let dir: string;
let outside: string;
let cleanup: () => Promise<void>;
let cleanupOutside: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir());
  ({ dir: outside, cleanup: cleanupOutside } = await tempDir('refmcp-fs-outside-'));
  conn = await startServer([dir]);
});

afterAll(async () => {
  await conn?.close();
  await cleanup?.();
  await cleanupOutside?.();
});

describe('FS-07 edit_file replaces literally', () => {
  it("$$, $&, $' and $1 in newText are written as is; the dry run shows the same diff and writes nothing", async () => {
    const file = join(dir, 'price.txt');
    await writeFile(file, 'price: PLACEHOLDER\n');
    const edits = [{ oldText: 'PLACEHOLDER', newText: "$$100 $& $' $1" }];

    const dry = await callChecked(conn, 'edit_file', { path: file, edits, dryRun: true });
    expect(dry.isError).toBeFalsy();
    expect(await readFile(file, 'utf8')).toBe('price: PLACEHOLDER\n');
    expect(dry.structuredContent).toMatchObject({ dryRun: true, written: false });

    const real = await callChecked(conn, 'edit_file', { path: file, edits });
    expect(real.isError).toBeFalsy();
    expect(await readFile(file, 'utf8')).toBe("price: $$100 $& $' $1\n");
    expect(real.structuredContent).toMatchObject({ dryRun: false, written: true });

    const diffOf = (r: typeof dry) => (r.structuredContent as { diff: string }).diff;
    expect(diffOf(dry)).toBe(diffOf(real));
    expect(diffOf(real)).toContain("-price: PLACEHOLDER\n+price: $$100 $& $' $1");
    expect(resultText(dry)).toMatch(/^Dry run: nothing was written/);
  });

  it('a CRLF file edited with LF oldText is edited and keeps CRLF', async () => {
    const file = join(dir, 'crlf.txt');
    await writeFile(file, 'first\r\nsecond\r\nthird\r\n');
    const result = await callChecked(conn, 'edit_file', {
      path: file,
      edits: [{ oldText: 'first\nsecond\n', newText: 'one\ntwo\n' }],
    });
    expect(result.isError).toBeFalsy();
    expect(await readFile(file, 'utf8')).toBe('one\r\ntwo\r\nthird\r\n');
    expect(resultText(result)).toMatch(/line endings were ignored.*CRLF line endings kept/s);
  });

  it('an oldText that is ambiguous, missing or differently indented fails and changes nothing', async () => {
    const file = join(dir, 'ambiguous.py');
    const original = 'def f():\n    x = 1\n    x = 1\n';
    await writeFile(file, original);
    const twice = await callChecked(conn, 'edit_file', {
      path: file,
      edits: [{ oldText: 'x = 1', newText: 'x = 2' }],
    });
    expect(twice.isError).toBe(true);
    expect(resultText(twice)).toMatch(/matches 2 times .*lines 2, 3.*unchanged/s);
    const indent = await callChecked(conn, 'edit_file', {
      path: file,
      edits: [
        { oldText: 'def f():', newText: 'def g():' },
        { oldText: 'x = 1\nx = 1', newText: 'x = 3' },
      ],
    });
    expect(indent.isError).toBe(true);
    expect(resultText(indent)).toMatch(/^edits\[1\].*indentation.* {4}x = 1\n {4}x = 1/s);
    expect(await readFile(file, 'utf8')).toBe(original); // edits[0] was not applied either
  });
});

describe('FS-08 move_file never overwrites', () => {
  it('a→b (b exists) and a→l (l is a dangling symlink) are isError "destination exists"; all unchanged', async () => {
    const a = join(dir, 'a.txt');
    const b = join(dir, 'b.txt');
    const l = join(dir, 'l');
    await writeFile(a, 'SOURCE');
    await writeFile(b, 'KEEP');
    await symlink(join(dir, 'nowhere'), l);
    for (const destination of [b, l]) {
      const result = await callChecked(conn, 'move_file', { source: a, destination });
      expect(result.isError).toBe(true);
      expect(resultText(result)).toMatch(/destination exists/);
    }
    expect(await readFile(a, 'utf8')).toBe('SOURCE');
    expect(await readFile(b, 'utf8')).toBe('KEEP');
    expect((await lstat(l)).isSymbolicLink()).toBe(true);
    expect(await readlink(l)).toBe(join(dir, 'nowhere'));
  });

  it('a move to a free name works', async () => {
    await writeFile(join(dir, 'from.txt'), 'MOVED');
    const result = await callChecked(conn, 'move_file', {
      source: join(dir, 'from.txt'),
      destination: join(dir, 'to.txt'),
    });
    expect(result.isError).toBeFalsy();
    expect(await readFile(join(dir, 'to.txt'), 'utf8')).toBe('MOVED');
    await expect(stat(join(dir, 'from.txt'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('FS-12 create_directory is mkdir -p', () => {
  it('creates a/b/c with a missing, and succeeds again when it exists', async () => {
    const target = join(dir, 'a', 'b', 'c');
    const first = await callChecked(conn, 'create_directory', { path: target });
    expect(first.isError).toBeFalsy();
    expect((await stat(target)).isDirectory()).toBe(true);
    const again = await callChecked(conn, 'create_directory', { path: target });
    expect(again.isError).toBeFalsy();
    expect(resultText(again)).toMatch(/already exists/);
  });

  it('refuses a path through a symlink to outside, creating nothing there', async () => {
    await symlink(outside, join(dir, 'escape'));
    const result = await callChecked(conn, 'create_directory', { path: join(dir, 'escape', 'd', 'e') });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/Access denied/);
    expect(await readdir(outside)).toEqual([]);
  });
});

describe('FS-13 permissions are kept', () => {
  it('editing or rewriting a 0600 file keeps mode 0600', async () => {
    const file = join(dir, 'secret.txt');
    await writeFile(file, 'token: old\n', { mode: 0o600 });
    const edit = await callChecked(conn, 'edit_file', {
      path: file,
      edits: [{ oldText: 'old', newText: 'new' }],
    });
    expect(edit.isError).toBeFalsy();
    expect(await readFile(file, 'utf8')).toBe('token: new\n');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const write = await callChecked(conn, 'write_file', { path: file, content: 'token: newer\n' });
    expect(write.isError).toBeFalsy();
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});

describe('write_file', () => {
  it('creates and overwrites, saying which; a missing parent points to create_directory', async () => {
    const file = join(dir, 'w.txt');
    const created = await callChecked(conn, 'write_file', { path: file, content: 'héllo\n' });
    expect(resultText(created)).toMatch(/^Created .*w\.txt \(7 bytes\)/);
    const replaced = await callChecked(conn, 'write_file', { path: file, content: 'bye\n' });
    expect(resultText(replaced)).toMatch(/^Overwrote/);
    expect(await readFile(file, 'utf8')).toBe('bye\n');
    const orphan = await callChecked(conn, 'write_file', {
      path: join(dir, 'no', 'such', 'x.txt'),
      content: 'x',
    });
    expect(orphan.isError).toBe(true);
    expect(resultText(orphan)).toMatch(/create_directory/);
  });

  it('FS-14: NUL in a path and C:\\x are isError and write nothing', async () => {
    const nul = await callChecked(conn, 'write_file', { path: `${dir}/x\u0000y.txt`, content: 'x' });
    expect(nul.isError).toBe(true);
    const win = await callChecked(conn, 'write_file', { path: 'C:\\x', content: 'x' });
    expect(win.isError).toBe(true);
    expect(resultText(win)).toMatch(/Windows-style/);
    expect((await readdir(dir)).some((n) => n.includes('C:') || n.startsWith('x'))).toBe(false);
  });

  it('breaker finding 5: a directory target says it is a directory; a name over 255 bytes names the limit', async () => {
    for (const target of [dir, '.']) {
      const r = await callChecked(conn, 'write_file', { path: target, content: 'x' });
      expect(r.isError).toBe(true);
      expect(resultText(r)).toMatch(/is a directory; only regular files can be written/);
    }
    const long = 'n'.repeat(256);
    for (const [tool, args] of [
      ['write_file', { path: long, content: 'x' }],
      ['create_directory', { path: `${long}/x` }],
      ['read_text_file', { path: long }],
      ['list_directory', { path: long }],
    ] as const) {
      const r = await callChecked(conn, tool, args);
      expect(r.isError).toBe(true);
      expect(resultText(r)).toMatch(/is 256 bytes long; file and directory names are limited to 255 bytes/);
      expect(resultText(r)).not.toContain('ENAMETOOLONG');
    }
    expect((await readdir(dir)).filter((n) => n.startsWith('.') && n.endsWith('.tmp'))).toEqual([]);
  });

  it('a file this server may not write (mode 0444) is refused by write_file and edit_file, unchanged', async () => {
    const asRoot = process.getuid?.() === 0;
    const { dir: ro, cleanup: cleanupRo } = await tempDir('refmcp-fs-ro-');
    const file = join(ro, 'locked.txt');
    await writeFile(file, 'keep me\n');
    await chmod(file, 0o444);
    if (asRoot) {
      await chmod(ro, 0o777); // the directory stays writable: only the file's own mode protects it
      await chown(file, NOBODY, NOBODY);
    }
    const server = await startUnprivileged([ro]);
    try {
      for (const [tool, args] of [
        ['write_file', { path: file, content: 'replaced' }],
        ['edit_file', { path: file, edits: [{ oldText: 'keep', newText: 'lose' }] }],
      ] as const) {
        const r = await callChecked(server, tool, args);
        expect(r.isError, tool).toBe(true);
        expect(resultText(r)).toMatch(/is not writable by this server \(mode 0444\); it was not changed/);
      }
      expect(await readFile(file, 'utf8')).toBe('keep me\n');
      expect((await stat(file)).mode & 0o777).toBe(0o444);
      expect((await readdir(ro)).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    } finally {
      await server.close();
      await cleanupRo();
    }
  });

  it('writes through no symlink to outside', async () => {
    await symlink(join(outside, 'created.txt'), join(dir, 'dangling.txt'));
    const result = await callChecked(conn, 'write_file', { path: join(dir, 'dangling.txt'), content: 'x' });
    expect(result.isError).toBe(true);
    expect(await readdir(outside)).toEqual([]);
  });
});

describe('annotations', () => {
  it('each read/write tool declares all four hints as designed', async () => {
    const { tools } = await conn.client.listTools();
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    const read = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
    for (const name of [
      'read_text_file',
      'read_file',
      'read_media_file',
      'read_multiple_files',
      'get_file_info',
      'list_allowed_directories',
    ]) {
      expect(hints[name], name).toMatchObject(read);
    }
    const write = { readOnlyHint: false, openWorldHint: false };
    expect(hints.write_file).toMatchObject({ ...write, destructiveHint: true, idempotentHint: true });
    expect(hints.edit_file).toMatchObject({ ...write, destructiveHint: true, idempotentHint: false });
    expect(hints.create_directory).toMatchObject({ ...write, destructiveHint: false, idempotentHint: true });
    expect(hints.move_file).toMatchObject({ ...write, destructiveHint: true, idempotentHint: false });
  });

  it('--read-only serves the read tools only', async () => {
    const ro = await startServer([dir, '--read-only']);
    try {
      const names = (await ro.client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('read_text_file');
      for (const name of ['write_file', 'edit_file', 'create_directory', 'move_file'])
        expect(names).not.toContain(name);
    } finally {
      await ro.close();
    }
  });
});

describe('edit_file on files it cannot edit', () => {
  it('refuses binary and non-UTF-8 files without touching them', async () => {
    const bin = join(dir, 'bin.dat');
    await writeFile(bin, Buffer.from([0x41, 0x00, 0x42]));
    const r1 = await callChecked(conn, 'edit_file', { path: bin, edits: [{ oldText: 'A', newText: 'B' }] });
    expect(r1.isError).toBe(true);
    expect(resultText(r1)).toMatch(/binary/);
    const latin1 = join(dir, 'latin1.txt');
    await writeFile(latin1, Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a])); // "café\n" in Latin-1
    const r2 = await callChecked(conn, 'edit_file', {
      path: latin1,
      edits: [{ oldText: 'caf', newText: 'CAF' }],
    });
    expect(r2.isError).toBe(true);
    expect(resultText(r2)).toMatch(/not valid UTF-8/);
    expect((await readFile(latin1)).equals(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]))).toBe(true);
    await mkdir(join(dir, 'adir'));
    const r3 = await callChecked(conn, 'edit_file', {
      path: join(dir, 'adir'),
      edits: [{ oldText: 'a', newText: 'b' }],
    });
    expect(r3.isError).toBe(true);
  });
});
