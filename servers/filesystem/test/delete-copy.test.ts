/**
 * delete_file and copy_file through the built server: deletes move to the freedesktop trash (a
 * `.trashinfo` that names the original path, the entry restorable by moving it back), never unlink;
 * copies of files and trees are atomic, refuse to overwrite unless asked and stay inside the allowed
 * directories; both are off under --read-only.
 */

import { spawnSync } from 'node:child_process';
import {
  lstat,
  mkdir,
  readdir,
  readFile,
  readlink,
  rename,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import type { Connection } from '@refmcp/test-harness';
import { callChecked, resultText, serverBin, startBuiltServer, tempDir } from '@refmcp/test-harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from './support.js';

let conn: Connection;
let dir: string;
let data: string;
let outside: string;
let cleanups: Array<() => Promise<void>> = [];

const trash = () => join(data, 'Trash');

beforeAll(async () => {
  const a = await tempDir();
  const b = await tempDir('refmcp-fs-data-');
  const c = await tempDir('refmcp-fs-outside-');
  ({ dir } = a);
  ({ dir: data } = b);
  ({ dir: outside } = c);
  cleanups = [a.cleanup, b.cleanup, c.cleanup];
  conn = await startBuiltServer('filesystem', [dir], { env: { XDG_DATA_HOME: data } });
});

afterAll(async () => {
  await conn?.close();
  for (const cleanup of cleanups) await cleanup();
});

describe('delete_file moves to the trash', () => {
  it('a file: gone from its place, in Trash/files with a .trashinfo naming it; moving it back restores it', async () => {
    const file = join(dir, 'notes 100%.txt');
    await writeFile(file, 'keep me');
    const r = await callChecked(conn, 'delete_file', { path: file });
    expect(r.isError).toBeFalsy();
    expect(resultText(r)).toMatch(
      /Moved file .* to the trash as .*Trash\/files\/notes 100%\.txt \(restorable\)/,
    );
    await expect(lstat(file)).rejects.toThrow(/ENOENT/);
    const info = await readFile(join(trash(), 'info', 'notes 100%.txt.trashinfo'), 'utf8');
    expect(info).toMatch(
      new RegExp(
        `^\\[Trash Info\\]\\nPath=${dir.replaceAll('/', '\\/')}\\/notes%20100%25\\.txt\\nDeletionDate=\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\n$`,
      ),
    );
    await rename(join(trash(), 'files', 'notes 100%.txt'), file);
    expect(await readFile(file, 'utf8')).toBe('keep me');
  });

  it('a second entry of the same name takes name.2', async () => {
    const file = join(dir, 'twice.txt');
    await writeFile(file, 'one');
    await callChecked(conn, 'delete_file', { path: file });
    await writeFile(file, 'two');
    const r = await callChecked(conn, 'delete_file', { path: file });
    expect(resultText(r)).toMatch(/twice\.txt\.2 \(restorable\)/);
    expect(await readFile(join(trash(), 'files', 'twice.txt'), 'utf8')).toBe('one');
    expect(await readFile(join(trash(), 'files', 'twice.txt.2'), 'utf8')).toBe('two');
    expect(await readdir(join(trash(), 'info'))).toContain('twice.txt.2.trashinfo');
  });

  it('an empty directory without recursive; a full one only with recursive: true', async () => {
    const empty = join(dir, 'empty');
    await mkdir(empty);
    expect((await callChecked(conn, 'delete_file', { path: empty })).isError).toBeFalsy();
    const full = join(dir, 'full');
    await mkdir(join(full, 'sub'), { recursive: true });
    await writeFile(join(full, 'sub', 'x.txt'), 'x');
    const refused = await callChecked(conn, 'delete_file', { path: full });
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toMatch(/not empty; pass recursive: true/);
    expect(await readFile(join(full, 'sub', 'x.txt'), 'utf8')).toBe('x');
    const done = await callChecked(conn, 'delete_file', { path: full, recursive: true });
    expect(done.isError).toBeFalsy();
    await expect(lstat(full)).rejects.toThrow(/ENOENT/);
    expect(await readFile(join(trash(), 'files', 'full', 'sub', 'x.txt'), 'utf8')).toBe('x');
  });

  it('a symlink is trashed itself, its target left alone', async () => {
    await writeFile(join(outside, 'target.txt'), 'outside');
    const link = join(dir, 'link-out');
    await symlink(join(outside, 'target.txt'), link);
    expect((await callChecked(conn, 'delete_file', { path: link })).isError).toBeFalsy();
    expect(await readlink(join(trash(), 'files', 'link-out'))).toBe(join(outside, 'target.txt'));
    expect(await readFile(join(outside, 'target.txt'), 'utf8')).toBe('outside');
  });

  it('refuses what is outside, missing, or an allowed directory itself', async () => {
    await writeFile(join(outside, 'victim.txt'), 'v');
    const out = await callChecked(conn, 'delete_file', { path: join(outside, 'victim.txt') });
    expect(out.isError).toBe(true);
    expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe('v');
    await symlink(outside, join(dir, 'via-link'));
    const through = await callChecked(conn, 'delete_file', { path: join(dir, 'via-link', 'victim.txt') });
    expect(through.isError).toBe(true);
    expect(await readFile(join(outside, 'victim.txt'), 'utf8')).toBe('v');
    const missing = await callChecked(conn, 'delete_file', { path: join(dir, 'nope') });
    expect(resultText(missing)).toMatch(/does not exist/);
    const root = await callChecked(conn, 'delete_file', { path: dir });
    expect(resultText(root)).toMatch(/allowed directory itself/);
    expect((await stat(dir)).isDirectory()).toBe(true);
  });
  it('refuses the trash itself, what holds it, and what is already in it (hostile run)', async () => {
    // A server whose allowed directory holds the trash (XDG_DATA_HOME inside it).
    const own = await tempDir('refmcp-fs-holds-trash-');
    cleanups.push(own.cleanup);
    const data2 = join(own.dir, 'data');
    await mkdir(data2);
    const c2 = await startBuiltServer('filesystem', [own.dir], { env: { XDG_DATA_HOME: data2 } });
    try {
      await writeFile(join(own.dir, 'x.txt'), 'x');
      expect((await callChecked(c2, 'delete_file', { path: join(own.dir, 'x.txt') })).isError).toBeFalsy();
      for (const holder of [join(data2, 'Trash'), data2]) {
        const r = await callChecked(c2, 'delete_file', { path: holder, recursive: true });
        expect(r.isError, holder).toBe(true);
        expect(resultText(r)).toMatch(/holds the trash .* cannot be moved into it/);
        expect(resultText(r)).not.toMatch(/Internal error|EINVAL/);
      }
      for (const inside of [join(data2, 'Trash', 'files'), join(data2, 'Trash', 'files', 'x.txt')]) {
        const r = await callChecked(c2, 'delete_file', { path: inside, recursive: true });
        expect(resultText(r)).toMatch(/already in the trash/);
      }
      expect(await readFile(join(data2, 'Trash', 'files', 'x.txt'), 'utf8')).toBe('x');
    } finally {
      await c2.close();
    }
  });
});

describe('copy_file', () => {
  it('copies a file with its mode; refuses an existing destination unless overwrite: true', async () => {
    const src = join(dir, 'src.sh');
    await writeFile(src, '#!/bin/sh\necho hi\n', { mode: 0o750 });
    const dst = join(dir, 'dst.sh');
    const r = await callChecked(conn, 'copy_file', { source: src, destination: dst });
    expect(resultText(r)).toMatch(/^Copied to .*dst\.sh from .*src\.sh \(18 bytes\)\./);
    expect(await readFile(dst, 'utf8')).toBe('#!/bin/sh\necho hi\n');
    expect((await stat(dst)).mode & 0o777).toBe(0o750 & ~process.umask());

    await writeFile(src, 'changed\n');
    const again = await callChecked(conn, 'copy_file', { source: src, destination: dst });
    expect(again.isError).toBe(true);
    expect(resultText(again)).toMatch(/exists/);
    expect(await readFile(dst, 'utf8')).toBe('#!/bin/sh\necho hi\n');
    const over = await callChecked(conn, 'copy_file', { source: src, destination: dst, overwrite: true });
    expect(resultText(over)).toMatch(/^Replaced /);
    expect(await readFile(dst, 'utf8')).toBe('changed\n');
  });

  it('copies a tree (files, directories, symlinks as links); leaves no temp directory; never over a directory', async () => {
    const tree = join(dir, 'tree');
    await mkdir(join(tree, 'a', 'b'), { recursive: true });
    await writeFile(join(tree, 'top.txt'), 'top');
    await writeFile(join(tree, 'a', 'b', 'deep.txt'), 'deep');
    await symlink('../top.txt', join(tree, 'a', 'rel-link'));
    const copy = join(dir, 'tree-copy');
    const r = await callChecked(conn, 'copy_file', { source: tree, destination: copy });
    expect(resultText(r)).toMatch(/\(6 entries, 7 bytes\)/);
    expect(await readFile(join(copy, 'a', 'b', 'deep.txt'), 'utf8')).toBe('deep');
    expect(await readlink(join(copy, 'a', 'rel-link'))).toBe('../top.txt');
    expect((await readdir(dir)).filter((n) => n.endsWith('.tmp'))).toEqual([]);

    const again = await callChecked(conn, 'copy_file', { source: tree, destination: copy, overwrite: true });
    expect(again.isError).toBe(true);
    expect(resultText(again)).toMatch(/exists/);
    const into = await callChecked(conn, 'copy_file', {
      source: tree,
      destination: join(tree, 'a', 'inner'),
    });
    expect(resultText(into)).toMatch(/into itself/);
  });

  it('a relative symlink that would point outside from where the copy stands is not copied (hostile run)', async () => {
    const tree = join(dir, 'deep', 'inner');
    await mkdir(tree, { recursive: true });
    // From deep/inner this lands on top.txt of the allowed directory; from a copy one level up it
    // would land beside the allowed directory, outside it.
    await writeFile(join(dir, 'top.txt'), 'top');
    await symlink('../../top.txt', join(tree, 'up'));
    await symlink(join(outside, 'target.txt'), join(tree, 'abs-out'));
    const copy = join(dir, 'inner-copy');
    const r = await callChecked(conn, 'copy_file', { source: tree, destination: copy });
    expect(resultText(r)).toMatch(
      /2 not copied \(sockets, FIFOs, devices, or symlinks that would point outside/,
    );
    expect(await readdir(copy)).toEqual([]);
  });

  it('neither source nor destination may be outside', async () => {
    await writeFile(join(outside, 'secret.txt'), 's');
    const fromOut = await callChecked(conn, 'copy_file', {
      source: join(outside, 'secret.txt'),
      destination: join(dir, 'stolen.txt'),
    });
    expect(fromOut.isError).toBe(true);
    await expect(lstat(join(dir, 'stolen.txt'))).rejects.toThrow(/ENOENT/);
    await writeFile(join(dir, 'mine.txt'), 'm');
    const toOut = await callChecked(conn, 'copy_file', {
      source: join(dir, 'mine.txt'),
      destination: join(outside, 'planted.txt'),
    });
    expect(toOut.isError).toBe(true);
    await expect(lstat(join(outside, 'planted.txt'))).rejects.toThrow(/ENOENT/);
  });
});

describe('annotations and --read-only', () => {
  it('both are destructive-hinted and absent under --read-only', async () => {
    const tools = await conn.client.listTools();
    for (const name of ['delete_file', 'copy_file']) {
      const tool = tools.tools.find((t) => t.name === name);
      expect(tool?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    }
    const ro = await startServer([dir, '--read-only']);
    try {
      const names = (await ro.client.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain('delete_file');
      expect(names).not.toContain('copy_file');
    } finally {
      await ro.close();
    }
  });

  it('issue 27: --read-only with --tools naming only delete_file refuses to start (exit 2), naming the conflict', () => {
    const bin = serverBin('filesystem');
    const run = spawnSync(bin.command, [...bin.args, dir, '--read-only', '--tools', 'delete_file'], {
      encoding: 'utf8',
      input: '',
      timeout: 30_000,
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('--tools delete_file and --read-only contradict');
    expect(run.stderr).toContain('drop --read-only, or name tools that only read');
    expect(run.stdout).toBe('');
  }, 60_000);
});
