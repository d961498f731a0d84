import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AllowedRoots, openInside, openResolved, readInside } from '../src/paths/index.js';
import { openPinned, pinInside, readPinned } from '../src/paths/pinned-open.js';
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
  await fs.writeFile(path.join(outside, 'secret.txt'), 'SECRET');
  return { allowed, outside, roots: await AllowedRoots.fromConfig([allowed]) };
}

describe('openInside', () => {
  it('opens a regular file inside and returns handle, path and stat', async () => {
    const { allowed, roots } = await fixture();
    await fs.writeFile(path.join(allowed, 'a.txt'), 'hello');
    const { handle, path: p, stat } = await openInside(roots, 'a.txt');
    try {
      expect(await handle.readFile('utf8')).toBe('hello');
      expect(stat.size).toBe(5);
      expect(p.real).toBe(path.join(allowed, 'a.txt'));
    } finally {
      await handle.close();
    }
  });

  it('FS-02 refuses to open through a symlink pointing outside', async () => {
    const { allowed, outside, roots } = await fixture();
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(allowed, 'passwd'));
    await fs.symlink(outside, path.join(allowed, 'etc'));
    await rejects(openInside(roots, 'passwd'), 'outside');
    await rejects(openInside(roots, 'etc/secret.txt'), 'outside');
    await rejects(openInside(roots, 'etc', { allowDirectory: true }), 'outside');
  });

  it('race: the file swapped for a symlink to outside after resolve is refused (O_NOFOLLOW)', async () => {
    const { allowed, outside, roots } = await fixture();
    const file = path.join(allowed, 'a.txt');
    await fs.writeFile(file, 'inside');
    const resolved = await roots.resolve('a.txt', { mustExist: true });
    await fs.rm(file);
    await fs.symlink(path.join(outside, 'secret.txt'), file);
    await rejects(openResolved(roots, resolved), 'outside'); // pre-open lstat sees the link
    await rejects(openResolved(roots, resolved, { precheck: false }), 'outside'); // O_NOFOLLOW → ELOOP
    await rejects(openResolved(roots, resolved, { precheck: false, verify: 'stat' }), 'outside');
  });

  it('race: a parent directory swapped for a symlink to outside is caught by verifying the opened fd', async () => {
    const { allowed, outside, roots } = await fixture();
    await fs.mkdir(path.join(allowed, 'd'));
    await fs.writeFile(path.join(allowed, 'd', 'secret.txt'), 'inside');
    const resolved = await roots.resolve('d/secret.txt', { mustExist: true });
    await fs.rename(path.join(allowed, 'd'), path.join(allowed, 'd.old'));
    await fs.symlink(outside, path.join(allowed, 'd'));
    await rejects(openResolved(roots, resolved), 'outside'); // /proc/self/fd check
    await rejects(openResolved(roots, resolved, { verify: 'stat' }), 'outside'); // fallback without /proc
  });

  it('FIFOs are refused without hanging; sockets too, naming the kind', async () => {
    const { allowed, roots } = await fixture();
    const fifo = path.join(allowed, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const e = await rejects(openInside(roots, 'pipe'), 'invalid');
    expect(e.message).toContain('FIFO');
    // Skip the pre-open lstat check: the open itself must not hang (O_NONBLOCK) and fstat must refuse it.
    const resolved = await roots.resolve('pipe', { mustExist: true });
    expect((await rejects(openResolved(roots, resolved, { precheck: false }), 'invalid')).message).toContain(
      'FIFO',
    );
    // A regular file swapped for a FIFO after resolve is refused too.
    await fs.writeFile(path.join(allowed, 'f.txt'), 'x');
    const f = await roots.resolve('f.txt', { mustExist: true });
    await fs.rm(f.real);
    execFileSync('mkfifo', [f.real]);
    await rejects(openResolved(roots, f, { precheck: false }), 'invalid');

    const sock = path.join(allowed, 's.sock');
    const server = net.createServer().listen(sock);
    await new Promise((r) => server.once('listening', r));
    try {
      expect((await rejects(openInside(roots, 's.sock'), 'invalid')).message).toContain('socket');
    } finally {
      server.close();
    }
  }, 5000);

  it('directories are refused unless allowDirectory', async () => {
    const { allowed, roots } = await fixture();
    await fs.mkdir(path.join(allowed, 'd'));
    expect((await rejects(openInside(roots, 'd'), 'invalid')).message).toContain('directory');
    const { handle, stat } = await openInside(roots, 'd', { allowDirectory: true });
    await handle.close();
    expect(stat.isDirectory()).toBe(true);
  });

  it('missing files are not_found', async () => {
    const { roots } = await fixture();
    await rejects(openInside(roots, 'nope.txt'), 'not_found');
  });
});

describe('openInside fast path (O_PATH pin, reopened through /proc/self/fd)', () => {
  const linux = process.platform === 'linux';

  it.runIf(linux)('opens what the general path opens: real path, root and stat', async () => {
    const { allowed, roots } = await fixture();
    await fs.mkdir(path.join(allowed, 'd'));
    await fs.writeFile(path.join(allowed, 'd', 'a.txt'), 'hello');
    await fs.symlink('d/a.txt', path.join(allowed, 'link'));
    const pinned = await openPinned(roots, 'link', false);
    expect(pinned).not.toBeNull();
    try {
      expect(pinned?.path.real).toBe(path.join(allowed, 'd', 'a.txt'));
      expect(pinned?.path.root.real).toBe(allowed);
      expect(pinned?.stat.size).toBe(5);
      expect(await pinned?.handle.readFile('utf8')).toBe('hello');
    } finally {
      await pinned?.handle.close();
    }
  });

  it.runIf(linux)(
    'race: the path swapped for a symlink to outside after the pin still reads the pinned file',
    async () => {
      const { allowed, outside, roots } = await fixture();
      const file = path.join(allowed, 'a.txt');
      await fs.writeFile(file, 'inside');
      const pinned = await openPinned(roots, file, false, {
        afterPin: async () => {
          await fs.rm(file);
          await fs.symlink(path.join(outside, 'secret.txt'), file);
        },
      });
      try {
        expect(await pinned?.handle.readFile('utf8')).toBe('inside');
      } finally {
        await pinned?.handle.close();
      }
    },
  );

  it.runIf(linux)(
    'leaves every refusal to the general path (same errors as before)',
    async () => {
      const { allowed, outside, roots } = await fixture();
      await fs.symlink(path.join(outside, 'secret.txt'), path.join(allowed, 'passwd'));
      await fs.mkdir(path.join(allowed, 'd'));
      execFileSync('mkfifo', [path.join(allowed, 'pipe')]);
      expect(await openPinned(roots, 'passwd', false)).toBeNull(); // outside
      expect(await openPinned(roots, path.join(outside, 'secret.txt'), false)).toBeNull();
      expect(await openPinned(roots, 'nope.txt', false)).toBeNull(); // missing
      expect(await openPinned(roots, 'd', false)).toBeNull(); // directory not asked for
      expect(await openPinned(roots, 'pipe', false)).toBeNull(); // FIFO: pinned, never opened
      await rejects(openInside(roots, 'passwd'), 'outside');
      await rejects(openInside(roots, 'nope.txt'), 'not_found');
      expect((await rejects(openInside(roots, 'pipe'), 'invalid')).message).toContain('FIFO');
      const dir = await openPinned(roots, 'd', true);
      expect(dir?.stat.isDirectory()).toBe(true);
      await dir?.handle.close();
    },
    5000,
  );

  it.runIf(linux)(
    'takes the general path for relative paths when several roots could hold them',
    async () => {
      const { allowed, roots: one } = await fixture();
      const other = await fixture();
      await fs.writeFile(path.join(other.allowed, 'only-in-second.txt'), 'x');
      const two = await AllowedRoots.fromConfig([allowed, other.allowed]);
      expect(await openPinned(two, 'only-in-second.txt', false)).toBeNull();
      const opened = await openInside(two, 'only-in-second.txt');
      expect(opened.path.real).toBe(path.join(other.allowed, 'only-in-second.txt'));
      await opened.handle.close();
      expect(one.roots).toHaveLength(1);
    },
  );
});

describe('readInside', () => {
  it('reads a small file whole (one read) and hands a bigger one back open', async () => {
    const { allowed, roots } = await fixture();
    await fs.writeFile(path.join(allowed, 'small.txt'), 'hello');
    await fs.writeFile(path.join(allowed, 'big.txt'), 'x'.repeat(100));
    const small = await readInside(roots, 'small.txt', 64);
    expect(small.bytes?.toString()).toBe('hello');
    expect(small.handle).toBeUndefined();
    expect(small.path.real).toBe(path.join(allowed, 'small.txt'));
    const big = await readInside(roots, 'big.txt', 64);
    try {
      expect(big.bytes).toBeUndefined();
      expect(big.stat.size).toBe(100);
    } finally {
      await big.handle?.close();
    }
  });

  it('refuses like openInside: outside, missing, FIFO', async () => {
    const { allowed, outside, roots } = await fixture();
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(allowed, 'passwd'));
    execFileSync('mkfifo', [path.join(allowed, 'pipe')]);
    await rejects(readInside(roots, 'passwd', 64), 'outside');
    await rejects(readInside(roots, 'nope', 64), 'not_found');
    expect((await rejects(readInside(roots, 'pipe', 64), 'invalid')).message).toContain('FIFO');
  }, 5000);

  it('reads whole through the general path too (relative path, several roots)', async () => {
    const one = await fixture();
    const other = await fixture();
    await fs.writeFile(path.join(other.allowed, 'b.txt'), 'second');
    const two = await AllowedRoots.fromConfig([one.allowed, other.allowed]);
    expect((await readInside(two, 'b.txt', 64)).bytes?.toString()).toBe('second');
  });

  it.runIf(process.platform === 'linux')(
    'a file that grew past the limit after the pin is not read whole',
    async () => {
      const { allowed, roots } = await fixture();
      const file = path.join(allowed, 'log.txt');
      await fs.writeFile(file, 'short');
      const pin = await pinInside(roots, 'log.txt', false);
      expect(pin).not.toBeNull();
      const read = await readPinned(pin as NonNullable<typeof pin>, 64, {
        afterPin: () => fs.appendFile(file, 'y'.repeat(1000)),
      });
      expect(read).toBeNull();
      const opened = await readInside(roots, 'log.txt', 64);
      expect(opened.bytes).toBeUndefined();
      await opened.handle?.close();
    },
  );
});
