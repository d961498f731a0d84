import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AllowedRoots, moveInside } from '../src/paths/index.js';
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

describe('moveInside', () => {
  it('FS-08 never overwrites a file or a dangling symlink; all three stay unchanged', async () => {
    const { allowed, roots } = await fixture();
    await fs.writeFile(path.join(allowed, 'a.txt'), 'SOURCE');
    await fs.writeFile(path.join(allowed, 'b.txt'), 'KEEP');
    await fs.symlink('nowhere', path.join(allowed, 'l'));
    for (const to of ['b.txt', 'l']) {
      const e = await rejects(moveInside(roots, 'a.txt', to), 'exists');
      expect(e.message).toContain('destination exists');
    }
    expect(await fs.readFile(path.join(allowed, 'a.txt'), 'utf8')).toBe('SOURCE');
    expect(await fs.readFile(path.join(allowed, 'b.txt'), 'utf8')).toBe('KEEP');
    expect(await fs.readlink(path.join(allowed, 'l'))).toBe('nowhere');
  });

  it('FS-08 a directory is never moved onto an existing (even empty) directory', async () => {
    const { allowed, roots } = await fixture();
    await fs.mkdir(path.join(allowed, 'src'));
    await fs.writeFile(path.join(allowed, 'src', 'f'), 'F');
    await fs.mkdir(path.join(allowed, 'empty'));
    await rejects(moveInside(roots, 'src', 'empty'), 'exists');
    expect(await fs.readdir(path.join(allowed, 'src'))).toEqual(['f']);
  });

  it('moves files, symlinks (the link itself) and directories', async () => {
    const { allowed, roots } = await fixture();
    await fs.writeFile(path.join(allowed, 'a.txt'), 'A');
    const r = await moveInside(roots, 'a.txt', 'b.txt');
    expect(r.to).toMatchObject({ real: path.join(allowed, 'b.txt'), exists: true });
    expect(await fs.readdir(allowed)).toEqual(['b.txt']);

    await fs.symlink('b.txt', path.join(allowed, 'link'));
    await moveInside(roots, 'link', 'link2');
    expect(await fs.readlink(path.join(allowed, 'link2'))).toBe('b.txt');

    await fs.mkdir(path.join(allowed, 'd'));
    await fs.writeFile(path.join(allowed, 'd', 'f'), 'F');
    await moveInside(roots, 'd', 'e');
    expect(await fs.readFile(path.join(allowed, 'e', 'f'), 'utf8')).toBe('F');
    expect((await fs.readdir(allowed)).sort()).toEqual(['b.txt', 'e', 'link2']);
  });

  it('FS-03 moving onto a dangling link to outside, or under a link to outside, changes nothing outside', async () => {
    const { allowed, outside, roots } = await fixture();
    await fs.writeFile(path.join(allowed, 'a.txt'), 'A');
    await fs.symlink(path.join(outside, 'created.txt'), path.join(allowed, 'new.txt'));
    await fs.symlink(outside, path.join(allowed, 'sub'));
    await rejects(moveInside(roots, 'a.txt', 'new.txt'), 'exists');
    await rejects(moveInside(roots, 'a.txt', 'sub/x.txt'), 'outside');
    await rejects(moveInside(roots, 'a.txt', path.join(outside, 'x.txt')), 'outside');
    expect(await fs.readdir(outside)).toEqual([]);
    expect(await fs.readFile(path.join(allowed, 'a.txt'), 'utf8')).toBe('A');
  });

  it('refuses outside sources, moving a root, moving a directory into itself, and a missing parent', async () => {
    const { allowed, outside, roots } = await fixture();
    await fs.writeFile(path.join(outside, 's.txt'), 'S');
    await rejects(moveInside(roots, path.join(outside, 's.txt'), 'in.txt'), 'outside');
    await rejects(moveInside(roots, allowed, path.join(allowed, 'x')), 'invalid');
    await fs.mkdir(path.join(allowed, 'd'));
    await rejects(moveInside(roots, 'd', 'd/inner'), 'invalid');
    await rejects(moveInside(roots, 'd', 'no/such/place'), 'not_found');
    await rejects(moveInside(roots, 'missing', 'x'), 'not_found');
    expect(await fs.readdir(allowed)).toEqual(['d']);
    expect(await fs.readdir(path.join(allowed, 'd'))).toEqual([]);
  });

  it('FS-06 a listed Unicode name round-trips into a move exactly', async () => {
    const { allowed, roots } = await fixture();
    const name = '9.52.38\u202FAM.png';
    await fs.writeFile(path.join(allowed, name), 'png');
    const [listed] = await fs.readdir(allowed);
    await moveInside(roots, listed as string, `moved\u00A0${listed}`);
    expect(await fs.readdir(allowed)).toEqual([`moved\u00A0${name}`]);
  });
});
