import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { AllowedRoots, expandHome } from '../src/paths/index.js';
import { rejects } from './paths-support.js';

const made: string[] = [];
afterEach(async () => {
  for (const d of made.splice(0)) await fs.rm(d, { recursive: true, force: true });
});

/** A fresh temp dir holding `allowed/` and `outside/` (real paths, so macOS /private/tmp does not confuse asserts). */
async function fixture(): Promise<{ base: string; allowed: string; outside: string }> {
  const base = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'refmcp-paths-')));
  made.push(base);
  const allowed = path.join(base, 'allowed');
  const outside = path.join(base, 'outside');
  await fs.mkdir(allowed);
  await fs.mkdir(outside);
  return { base, allowed, outside };
}

describe('AllowedRoots.resolve', () => {
  it('FS-01 prefix sibling is outside, also with the root configured with a trailing slash', async () => {
    const { base, allowed } = await fixture();
    await fs.mkdir(path.join(base, 'allowed_secrets'));
    await fs.writeFile(path.join(base, 'allowed_secrets', 'key.txt'), 'secret');
    for (const configured of [allowed, `${allowed}/`, `${allowed}//`]) {
      const roots = await AllowedRoots.fromConfig([configured]);
      expect(roots.roots[0]?.configured).toBe(allowed);
      const e = await rejects(roots.resolve(path.join(base, 'allowed_secrets', 'key.txt')), 'outside');
      expect(e.message).toContain('outside the allowed directories');
      expect(e.message).toContain(allowed);
      await rejects(roots.resolve(path.join(base, 'allowed-evil', 'x.txt')), 'outside');
      await rejects(roots.resolve(`${allowed}/../allowed_secrets/key.txt`), 'outside');
      await rejects(roots.resolve('../allowed_secrets/key.txt'), 'outside');
    }
  });

  it('FS-01 containsReal compares by path segments, never string prefix', async () => {
    const { base, allowed } = await fixture();
    const roots = await AllowedRoots.fromConfig([allowed]);
    expect(roots.containsReal(allowed)).toBe(true);
    expect(roots.containsReal(`${allowed}/a/b`)).toBe(true);
    expect(roots.containsReal(`${base}/allowed_secrets`)).toBe(false);
    expect(roots.containsReal(`${base}/allowed-evil/x`)).toBe(false);
    expect(roots.containsReal(base)).toBe(false);
    expect(roots.containsReal('allowed/x')).toBe(false);
  });

  it('FS-02 symlinks to a file or directory outside are refused; links staying inside work', async () => {
    const { allowed, outside } = await fixture();
    await fs.writeFile(path.join(outside, 'passwd'), 'root:x');
    await fs.symlink(path.join(outside, 'passwd'), path.join(allowed, 'passwd'));
    await fs.symlink(outside, path.join(allowed, 'etc'));
    await fs.writeFile(path.join(allowed, 'real.txt'), 'ok');
    await fs.symlink('real.txt', path.join(allowed, 'alias.txt'));
    await fs.mkdir(path.join(allowed, 'd'));
    await fs.symlink('../d', path.join(allowed, 'd', 'up'));
    const roots = await AllowedRoots.fromConfig([allowed]);
    const e = await rejects(roots.resolve(path.join(allowed, 'passwd')), 'outside');
    expect(e.message).toMatch(/symlink in it points outside the allowed directories/);
    expect(e.message).toContain(allowed);
    expect(e.message).not.toContain(outside); // the link's target is not revealed
    await rejects(roots.resolve(path.join(allowed, 'etc')), 'outside');
    await rejects(roots.resolve(path.join(allowed, 'etc', 'passwd')), 'outside');
    await rejects(roots.resolve('etc/passwd'), 'outside');
    const ok = await roots.resolve(path.join(allowed, 'alias.txt'), { mustExist: true });
    expect(ok.real).toBe(path.join(allowed, 'real.txt'));
    expect(ok.absolute).toBe(path.join(allowed, 'alias.txt'));
    expect((await roots.resolve(path.join(allowed, 'd', 'up', 'up'))).real).toBe(path.join(allowed, 'd'));
  });

  it('FS-03 (a) a dangling final symlink is checked at its target: outside', async () => {
    const { allowed, outside } = await fixture();
    await fs.symlink(path.join(outside, 'created.txt'), path.join(allowed, 'new.txt'));
    await fs.symlink('nowhere.txt', path.join(allowed, 'inner.txt'));
    const roots = await AllowedRoots.fromConfig([allowed]);
    await rejects(roots.resolve(path.join(allowed, 'new.txt')), 'outside');
    await rejects(roots.resolve('new.txt', { mustExist: true }), 'outside');
    const inner = await roots.resolve('inner.txt');
    expect(inner).toMatchObject({ exists: false, real: path.join(allowed, 'nowhere.txt') });
    expect(await fs.readdir(outside)).toEqual([]);
  });

  it('FS-03 (b) a missing path under a directory symlink to outside is outside, not "not found"', async () => {
    const { allowed, outside } = await fixture();
    await fs.symlink(outside, path.join(allowed, 'sub'));
    const roots = await AllowedRoots.fromConfig([allowed]);
    const e = await rejects(
      roots.resolve(path.join(allowed, 'sub', 'x.txt'), { mustExist: true }),
      'outside',
    );
    expect(e.message).toMatch(/Access denied/);
    expect(e.message).not.toMatch(/does not exist/);
  });

  it('FS-04 a root that is a symlink accepts both its configured and its real spelling', async () => {
    const { base } = await fixture();
    const real = path.join(base, 'real');
    const alias = path.join(base, 'alias');
    await fs.mkdir(real);
    await fs.symlink(real, alias);
    await fs.writeFile(path.join(real, 'a.txt'), 'A');
    const roots = await AllowedRoots.fromConfig([alias]);
    expect(roots.roots).toEqual([{ configured: alias, real }]);
    const viaAlias = await roots.resolve(path.join(alias, 'a.txt'), { mustExist: true });
    const viaReal = await roots.resolve(path.join(real, 'a.txt'), { mustExist: true });
    expect(viaAlias.real).toBe(path.join(real, 'a.txt'));
    expect(viaReal.real).toBe(path.join(real, 'a.txt'));
    expect(viaAlias.root.configured).toBe(alias);
    expect((await roots.resolve('a.txt')).absolute).toBe(path.join(alias, 'a.txt'));
  });

  it('FS-05 relative paths resolve against the root, never the cwd, and errors say how', async () => {
    const { allowed } = await fixture();
    await fs.mkdir(path.join(allowed, 'notes'));
    await fs.writeFile(path.join(allowed, 'notes', 'm.log'), 'log');
    const roots = await AllowedRoots.fromConfig([allowed]);
    const cwd = process.cwd();
    process.chdir('/');
    try {
      const r = await roots.resolve('notes/m.log', { mustExist: true });
      expect(r.real).toBe(path.join(allowed, 'notes', 'm.log'));
      expect((await roots.resolve('./notes/../notes/m.log')).real).toBe(r.real);
      // 'etc/passwd' exists relative to cwd '/', but must not be found through it
      const e = await rejects(roots.resolve('etc/passwd', { mustExist: true }), 'not_found');
      expect(e.message).toContain(`Relative paths are resolved against the allowed directory "${allowed}"`);
      const o = await rejects(roots.resolve('../x'), 'outside');
      expect(o.message).toContain('Relative paths are resolved against');
    } finally {
      process.chdir(cwd);
    }
  });

  it('FS-05 with several roots, a relative path resolves in the first root where it exists, else the first', async () => {
    const a = (await fixture()).allowed;
    const b = (await fixture()).allowed;
    await fs.writeFile(path.join(b, 'only-in-b.txt'), 'b');
    await fs.writeFile(path.join(a, 'both.txt'), 'a');
    await fs.writeFile(path.join(b, 'both.txt'), 'b');
    const roots = await AllowedRoots.fromConfig([a, b]);
    expect((await roots.resolve('only-in-b.txt')).real).toBe(path.join(b, 'only-in-b.txt'));
    expect((await roots.resolve('both.txt')).real).toBe(path.join(a, 'both.txt'));
    expect((await roots.resolve('new.txt')).real).toBe(path.join(a, 'new.txt'));
    const e = await rejects(roots.resolve('missing.txt', { mustExist: true }), 'not_found');
    expect(e.message).toContain('first allowed directory in which they exist');
  });

  it('FS-06 an NFD directory is found by its NFC spelling; U+202F, U+00A0 and emoji names round-trip exactly', async () => {
    const { allowed } = await fixture();
    const nfd = 'Ca\u0301fe\u0301'.normalize('NFD');
    const nfc = nfd.normalize('NFC');
    expect(nfc).not.toBe(nfd);
    await fs.mkdir(path.join(allowed, nfd));
    await fs.writeFile(path.join(allowed, nfd, 'x.txt'), 'x');
    const names = ['9.52.38\u202FAM.png', 'a\u00A0b.txt', 'snap 📸🧪.txt'];
    for (const n of names) await fs.writeFile(path.join(allowed, n), n);
    const roots = await AllowedRoots.fromConfig([allowed]);

    const dir = await roots.resolve(path.join(allowed, nfc), { mustExist: true });
    expect(dir.real).toBe(path.join(allowed, nfd));
    expect((await roots.resolve(`${nfc}/x.txt`, { mustExist: true })).real).toBe(
      path.join(allowed, nfd, 'x.txt'),
    );
    // A new name under the NFC spelling lands in the stored NFD directory, and keeps its own spelling.
    expect((await roots.resolve(`${nfc}/${nfc}.txt`)).real).toBe(path.join(allowed, nfd, `${nfc}.txt`));

    for (const listed of await fs.readdir(allowed)) {
      const r = await roots.resolve(path.join(allowed, listed), { mustExist: true });
      expect(path.basename(r.real)).toBe(listed);
    }
    await rejects(roots.resolve('a b.txt', { mustExist: true }), 'not_found'); // U+0020 is not U+00A0
  });

  it('FS-14 NUL bytes are refused', async () => {
    const { allowed } = await fixture();
    const roots = await AllowedRoots.fromConfig([allowed]);
    for (const p of [`${allowed}/a\u0000b`, 'a\u0000', `file://${allowed}/a%00b`]) {
      const e = await rejects(roots.resolve(p), 'invalid');
      expect(e.message).toContain('NUL bytes are not allowed in paths');
    }
    await rejects(AllowedRoots.fromConfig([`${allowed}\u0000`]), 'invalid');
  });

  it('FS-14 Windows-style paths are refused, not joined to a root', async () => {
    const { allowed } = await fixture();
    const roots = await AllowedRoots.fromConfig([allowed]);
    for (const p of [
      'C:\\x',
      'C:/x',
      'c:',
      '\\\\server\\share\\f.txt',
      '\\Users\\x',
      'notes\\m.log',
      '..\\secret',
    ]) {
      const e = await rejects(roots.resolve(p), 'invalid');
      expect(e.message).toContain('Windows-style path');
      expect(e.message).toMatch(/forward slashes, e\.g\. "\//);
    }
    expect(await fs.readdir(allowed)).toEqual([]);
    // A backslash is a legal POSIX name character: a file that really has one is found.
    await fs.writeFile(path.join(allowed, 'odd\\name.txt'), 'x');
    expect((await roots.resolve('odd\\name.txt', { mustExist: true })).exists).toBe(true);
  });

  it('FS-14 empty, over-long and non-file-URI inputs are invalid', async () => {
    const { allowed } = await fixture();
    const roots = await AllowedRoots.fromConfig([allowed]);
    expect((await rejects(roots.resolve(''), 'invalid')).message).toContain('empty');
    const long = `${allowed}/${'a/'.repeat(2100)}`;
    expect((await rejects(roots.resolve(long), 'invalid')).message).toContain('4096 bytes');
    await rejects(roots.resolve('https://example.com/x'), 'invalid');
    await rejects(roots.resolve('file://server/share/x'), 'invalid');
    await rejects(roots.resolve('~root/x'), 'invalid');
  });

  it('expands ~ and ~/x to the home directory, and accepts file:// URIs', async () => {
    const { allowed } = await fixture();
    expect(expandHome('~')).toBe(os.homedir());
    expect(expandHome('~/a/b')).toBe(path.join(os.homedir(), 'a/b'));
    expect(expandHome('/x/~')).toBe('/x/~');
    const home = await AllowedRoots.fromConfig(['~']);
    expect(home.roots[0]?.configured).toBe(os.homedir());
    expect((await home.resolve('~/x.txt')).absolute).toBe(path.join(os.homedir(), 'x.txt'));

    await fs.writeFile(path.join(allowed, 'a b#.txt'), 'x');
    const roots = await AllowedRoots.fromConfig([pathToFileURL(allowed).href]);
    const r = await roots.resolve(pathToFileURL(path.join(allowed, 'a b#.txt')).href, { mustExist: true });
    expect(r.real).toBe(path.join(allowed, 'a b#.txt'));
  });

  it('mustExist: missing inside is not_found naming the path; missing outside still says outside', async () => {
    const { allowed, outside } = await fixture();
    const roots = await AllowedRoots.fromConfig([allowed]);
    const e = await rejects(roots.resolve(`${allowed}/nope.txt`, { mustExist: true }), 'not_found');
    expect(e.message).toContain(`${allowed}/nope.txt`);
    expect(e.path).toBe(`${allowed}/nope.txt`);
    await rejects(roots.resolve(`${outside}/nope.txt`, { mustExist: true }), 'outside');
    const r = await roots.resolve(`${allowed}/new/deeper.txt`);
    expect(r).toMatchObject({
      exists: false,
      real: `${allowed}/new/deeper.txt`,
      absolute: `${allowed}/new/deeper.txt`,
    });
  });

  it('symlink loops are invalid inside, and outside say only "outside"', async () => {
    const { allowed, outside } = await fixture();
    await fs.symlink('loop2', path.join(allowed, 'loop1'));
    await fs.symlink('loop1', path.join(allowed, 'loop2'));
    await fs.symlink('oloop', path.join(outside, 'oloop'));
    await fs.symlink(path.join(outside, 'oloop'), path.join(allowed, 'toloop'));
    const roots = await AllowedRoots.fromConfig([allowed]);
    expect((await rejects(roots.resolve('loop1/x'), 'invalid')).message).toContain('symbolic links');
    await rejects(roots.resolve('toloop'), 'outside');
  });

  it('resolveEntry keeps a final symlink itself', async () => {
    const { allowed, outside } = await fixture();
    await fs.symlink(outside, path.join(allowed, 'out'));
    const roots = await AllowedRoots.fromConfig([allowed]);
    const e = await roots.resolveEntry('out', { mustExist: true });
    expect(e).toMatchObject({ real: path.join(allowed, 'out'), exists: true });
    await rejects(roots.resolveEntry('out/x'), 'outside');
  });
});

describe('AllowedRoots.fromConfig', () => {
  it('refuses missing directories and files, naming them; drops duplicates', async () => {
    const { base, allowed } = await fixture();
    await fs.writeFile(path.join(base, 'file'), '');
    await fs.symlink(allowed, path.join(base, 'link'));
    const missing = await rejects(AllowedRoots.fromConfig([path.join(base, 'nope')]), 'not_found');
    expect(missing.message).toContain(path.join(base, 'nope'));
    const file = await rejects(AllowedRoots.fromConfig([path.join(base, 'file')]), 'not_a_directory');
    expect(file.message).toContain(path.join(base, 'file'));
    const roots = await AllowedRoots.fromConfig([allowed, `${allowed}/`, path.join(base, 'link')]);
    expect(roots.roots).toEqual([{ configured: allowed, real: allowed }]);
  });

  it('makes relative configured directories absolute against the cwd at startup', async () => {
    const { base, allowed } = await fixture();
    const cwd = process.cwd();
    process.chdir(base);
    try {
      const roots = await AllowedRoots.fromConfig(['allowed']);
      expect(roots.roots[0]?.configured).toBe(allowed);
    } finally {
      process.chdir(cwd);
    }
  });
});

describe('AllowedRoots.narrow', () => {
  it('never widens: client roots outside, or containing, operator roots give at most the operator roots', async () => {
    const { base, allowed, outside } = await fixture();
    const roots = await AllowedRoots.fromConfig([allowed]);
    const wide = await roots.narrow([base, pathToFileURL(outside).href]);
    expect(wide.roots).toEqual(roots.roots);
    await rejects(wide.resolve(path.join(outside, 'x')), 'outside');
    await rejects(wide.resolve(path.join(base, 'x')), 'outside');
  });

  it('narrows to client roots inside the operator roots; relative paths use the first client root', async () => {
    const { allowed } = await fixture();
    await fs.mkdir(path.join(allowed, 'proj'));
    await fs.mkdir(path.join(allowed, 'other'));
    const roots = await AllowedRoots.fromConfig([allowed]);
    const narrowed = await roots.narrow([
      pathToFileURL(path.join(allowed, 'proj')).href,
      'relative/ignored',
      'C:\\x',
    ]);
    expect(narrowed.roots.map((r) => r.real)).toEqual([path.join(allowed, 'proj')]);
    expect((await narrowed.resolve('a.txt')).real).toBe(path.join(allowed, 'proj', 'a.txt'));
    await rejects(narrowed.resolve(path.join(allowed, 'other', 'x')), 'outside');
    // Narrowing again cannot get back what was narrowed away.
    const again = await narrowed.narrow([allowed]);
    expect(again.roots.map((r) => r.real)).toEqual([path.join(allowed, 'proj')]);
  });

  it('with no overlap allows nothing and says the roots do not overlap', async () => {
    const { allowed, outside } = await fixture();
    const roots = await AllowedRoots.fromConfig([allowed]);
    const none = await roots.narrow([outside]);
    expect(none.roots).toEqual([]);
    for (const p of [path.join(allowed, 'x'), 'x', path.join(outside, 'x')]) {
      const e = await rejects(none.resolve(p), 'outside');
      expect(e.message).toContain("the client's roots");
      expect(e.message).toContain("do not overlap the server's allowed directories");
    }
  });
});
