import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AllowedRoots, mkdirInside, mkdirResolved } from '../src/paths/index.js';
import { rejects } from './paths-support.js';

const made: string[] = [];
afterEach(async () => {
  for (const d of made.splice(0)) await fs.rm(d, { recursive: true, force: true });
});

async function fixture(): Promise<{ allowed: string; outside: string; roots: AllowedRoots }> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'refmcp-paths-')));
  made.push(base);
  const allowed = path.join(base, 'allowed');
  const outside = path.join(base, 'outside');
  await fs.mkdir(allowed);
  await fs.mkdir(outside);
  return { allowed, outside, roots: await AllowedRoots.fromConfig([allowed]) };
}

describe('mkdirInside', () => {
  it('FS-12 creates a/b/c with a missing; an existing directory is success', async () => {
    const { allowed, roots } = await fixture();
    const r = await mkdirInside(roots, path.join(allowed, 'a', 'b', 'c'));
    expect(r).toMatchObject({ real: path.join(allowed, 'a', 'b', 'c'), exists: true });
    expect((await fs.stat(r.real)).isDirectory()).toBe(true);
    expect((await mkdirInside(roots, 'a/b')).real).toBe(path.join(allowed, 'a', 'b'));
  });

  it('FS-03 creating under a directory symlink to outside is outside; nothing is created there', async () => {
    const { allowed, outside, roots } = await fixture();
    await fs.symlink(outside, path.join(allowed, 'sub'));
    await rejects(mkdirInside(roots, 'sub/d'), 'outside');
    await rejects(mkdirInside(roots, 'sub/d/e/f'), 'outside');
    expect(await fs.readdir(outside)).toEqual([]);
  });

  it('a file in the way is not_a_directory', async () => {
    const { allowed, roots } = await fixture();
    await fs.writeFile(path.join(allowed, 'f'), '');
    await rejects(mkdirInside(roots, 'f'), 'not_a_directory');
    await rejects(mkdirInside(roots, 'f/sub'), 'not_a_directory');
  });

  it('FS-12 race: a created level swapped for a symlink to outside mid-way aborts with outside', async () => {
    const { allowed, outside, roots } = await fixture();
    const resolved = await roots.resolve('a/b/c');
    const p = mkdirResolved(roots, resolved, {
      afterCreate: async (dir) => {
        if (dir !== path.join(allowed, 'a')) return;
        await fs.rmdir(dir);
        await fs.symlink(outside, dir);
      },
    });
    await rejects(p, 'outside');
    expect(await fs.readdir(outside)).toEqual([]);
  });

  it('keeps Unicode names exactly (FS-06)', async () => {
    const { allowed, roots } = await fixture();
    const name = '9.52.38\u202FAM 📸';
    await mkdirInside(roots, `x/${name}`);
    expect(await fs.readdir(path.join(allowed, 'x'))).toEqual([name]);
  });
});
