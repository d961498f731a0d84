import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AllowedRoots, writeFileAtomic, writeResolved } from '../src/paths/index.js';
import { rejects } from './paths-support.js';

const made: string[] = [];
afterEach(async () => {
  for (const d of made.splice(0)) await fs.rm(d, { recursive: true, force: true });
});

async function fixture(): Promise<{ base: string; allowed: string; outside: string; roots: AllowedRoots }> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'refmcp-paths-')));
  made.push(base);
  const allowed = path.join(base, 'allowed');
  const outside = path.join(base, 'outside');
  await fs.mkdir(allowed);
  await fs.mkdir(outside);
  return { base, allowed, outside, roots: await AllowedRoots.fromConfig([allowed]) };
}

/** The mode a plain new file gets under the current umask (avoids the deprecated umask() getter). */
async function defaultMode(dir: string): Promise<number> {
  const probe = path.join(dir, 'probe');
  await fs.writeFile(probe, '');
  const mode = (await fs.stat(probe)).mode & 0o777;
  await fs.rm(probe);
  return mode;
}

describe('writeFileAtomic', () => {
  it('creates a new file with 0o666 & ~umask and leaves no temp file', async () => {
    const { base, allowed, roots } = await fixture();
    const r = await writeFileAtomic(roots, 'new.txt', 'héllo');
    expect(r).toMatchObject({ real: path.join(allowed, 'new.txt'), exists: true });
    expect(await fs.readFile(path.join(allowed, 'new.txt'), 'utf8')).toBe('héllo');
    expect((await fs.stat(r.real)).mode & 0o777).toBe(await defaultMode(base));
    expect(await fs.readdir(allowed)).toEqual(['new.txt']);
  });

  it('replaces an existing file, accepts bytes', async () => {
    const { allowed, roots } = await fixture();
    await fs.writeFile(path.join(allowed, 'a.bin'), 'old old old');
    await writeFileAtomic(roots, path.join(allowed, 'a.bin'), new Uint8Array([0, 1, 2, 255]));
    expect([...(await fs.readFile(path.join(allowed, 'a.bin')))]).toEqual([0, 1, 2, 255]);
    expect(await fs.readdir(allowed)).toEqual(['a.bin']);
  });

  it('FS-13 keeps the existing mode (0600 stays 0600, 0640 stays 0640)', async () => {
    const { allowed, roots } = await fixture();
    for (const mode of [0o600, 0o640, 0o755]) {
      const f = path.join(allowed, `m${mode.toString(8)}`);
      await fs.writeFile(f, 'x');
      await fs.chmod(f, mode);
      await writeFileAtomic(roots, f, 'edited');
      expect((await fs.stat(f)).mode & 0o7777).toBe(mode);
    }
  });

  it('FS-01 writing to a prefix sibling is outside and creates nothing', async () => {
    const { base, roots } = await fixture();
    await rejects(writeFileAtomic(roots, path.join(base, 'allowed-evil', 'x.txt'), 'x'), 'outside');
    expect(await fs.readdir(base)).toEqual(['allowed', 'outside']);
  });

  it('FS-03 (a) writing through a dangling symlink to outside is outside; nothing is created there', async () => {
    const { allowed, outside, roots } = await fixture();
    await fs.symlink(path.join(outside, 'created.txt'), path.join(allowed, 'new.txt'));
    await rejects(writeFileAtomic(roots, 'new.txt', 'x'), 'outside');
    await rejects(writeFileAtomic(roots, 'new.txt', 'x', { exclusive: true }), 'outside');
    expect(await fs.readdir(outside)).toEqual([]);
    expect(await fs.readdir(allowed)).toEqual(['new.txt']);
  });

  it('FS-03 (b) writing under a directory symlink to outside says access denied, not "parent does not exist"', async () => {
    const { allowed, outside, roots } = await fixture();
    await fs.symlink(outside, path.join(allowed, 'sub'));
    const e = await rejects(writeFileAtomic(roots, 'sub/x.txt', 'x'), 'outside');
    expect(e.message).toMatch(/Access denied/);
    expect(e.message).not.toMatch(/does not exist/);
    await rejects(writeFileAtomic(roots, 'sub/missing/x.txt', 'x'), 'outside');
    expect(await fs.readdir(outside)).toEqual([]);
  });

  it('a symlink to a file inside writes the target and stays a symlink', async () => {
    const { allowed, roots } = await fixture();
    await fs.writeFile(path.join(allowed, 'target.txt'), 'old');
    await fs.symlink('target.txt', path.join(allowed, 'link.txt'));
    const r = await writeFileAtomic(roots, 'link.txt', 'new');
    expect(r.real).toBe(path.join(allowed, 'target.txt'));
    expect(await fs.readFile(path.join(allowed, 'target.txt'), 'utf8')).toBe('new');
    expect((await fs.lstat(path.join(allowed, 'link.txt'))).isSymbolicLink()).toBe(true);
  });

  it('a missing parent is not_found; a file as parent is not_a_directory; a directory target is invalid', async () => {
    const { allowed, roots } = await fixture();
    const e = await rejects(writeFileAtomic(roots, 'no/such/x.txt', 'x'), 'not_found');
    expect(e.message).toContain('parent directory');
    await fs.writeFile(path.join(allowed, 'f'), '');
    await rejects(writeFileAtomic(roots, 'f/x.txt', 'x'), 'not_a_directory');
    await fs.mkdir(path.join(allowed, 'd'));
    await rejects(writeFileAtomic(roots, 'd', 'x'), 'invalid');
    expect((await fs.readdir(allowed)).sort()).toEqual(['d', 'f']);
  });

  it('exclusive fails with exists for a file or a dangling symlink, and leaves them unchanged', async () => {
    const { allowed, roots } = await fixture();
    await fs.writeFile(path.join(allowed, 'a.txt'), 'KEEP');
    await fs.symlink('nowhere.txt', path.join(allowed, 'l'));
    await rejects(writeFileAtomic(roots, 'a.txt', 'x', { exclusive: true }), 'exists');
    await rejects(writeFileAtomic(roots, 'l', 'x', { exclusive: true }), 'exists');
    expect(await fs.readFile(path.join(allowed, 'a.txt'), 'utf8')).toBe('KEEP');
    expect((await fs.readdir(allowed)).sort()).toEqual(['a.txt', 'l']);
    await writeFileAtomic(roots, 'b.txt', 'B', { exclusive: true });
    expect(await fs.readFile(path.join(allowed, 'b.txt'), 'utf8')).toBe('B');
  });

  it('leaves no temp file when the write fails after the temp was created', async () => {
    const { allowed, roots } = await fixture();
    await fs.writeFile(path.join(allowed, 'a.txt'), 'KEEP');
    const resolved = await roots.resolve('a.txt');
    let seen = '';
    const boom = writeResolved(
      roots,
      resolved,
      'x',
      {},
      {
        afterTempCreated: async (temp) => {
          seen = temp;
          throw new Error('disk on fire');
        },
      },
    );
    await expect(boom).rejects.toThrow('disk on fire');
    expect(path.basename(seen)).toMatch(/^\.a\.txt\.[0-9a-f]{12}\.tmp$/);
    expect(await fs.readdir(allowed)).toEqual(['a.txt']);
    expect(await fs.readFile(path.join(allowed, 'a.txt'), 'utf8')).toBe('KEEP');
  });

  it('exclusive race: a file created between check and commit wins, and the temp file is removed', async () => {
    const { allowed, roots } = await fixture();
    const resolved = await roots.resolve('race.txt');
    const p = writeResolved(
      roots,
      resolved,
      'mine',
      { exclusive: true },
      {
        afterTempCreated: async () => fs.writeFile(path.join(allowed, 'race.txt'), 'theirs'),
      },
    );
    await rejects(p, 'exists');
    expect(await fs.readdir(allowed)).toEqual(['race.txt']);
    expect(await fs.readFile(path.join(allowed, 'race.txt'), 'utf8')).toBe('theirs');
  });

  it('race: the parent swapped for a symlink to outside after resolve is refused; nothing lands outside', async () => {
    const { allowed, outside, roots } = await fixture();
    await fs.mkdir(path.join(allowed, 'd'));
    const resolved = await roots.resolve('d/x.txt');
    await fs.rename(path.join(allowed, 'd'), path.join(allowed, 'd.old'));
    await fs.symlink(outside, path.join(allowed, 'd'));
    await rejects(writeResolved(roots, resolved, 'x'), 'outside');
    expect(await fs.readdir(outside)).toEqual([]);
  });

  it('race: the target swapped for a symlink to outside after resolve is refused; the outside file is untouched', async () => {
    const { allowed, outside, roots } = await fixture();
    await fs.writeFile(path.join(outside, 'secret.txt'), 'SECRET');
    await fs.writeFile(path.join(allowed, 'a.txt'), 'x');
    const resolved = await roots.resolve('a.txt');
    await fs.rm(path.join(allowed, 'a.txt'));
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(allowed, 'a.txt'));
    await rejects(writeResolved(roots, resolved, 'pwned'), 'outside');
    expect(await fs.readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('SECRET');
    expect(await fs.readdir(allowed)).toEqual(['a.txt']);
  });
});
