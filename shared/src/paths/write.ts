import { constants, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { errnoOf, fsErrorToPathError, PathError, quote } from './errors.js';
import { fs } from './fs-names.js';
import { kindOf } from './kind.js';
import { type DirPin, pinDirectory, unpin } from './pin.js';
import type { ResolvedPath } from './resolve.js';
import type { AllowedRoots } from './roots.js';
import { changedError, verifyOpened } from './verify.js';

/** O_EXCL|O_NOFOLLOW: the temp name must be new and must not be a planted symlink. */
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;

export interface WriteOptions {
  /** Fail with PathError 'exists' if the target (or a dangling symlink at its name) exists. */
  exclusive?: boolean;
  /** Permission bits of a new file (an existing file keeps its own); default 0o666 less the umask. */
  mode?: number;
}

/** What is written: text (UTF-8), bytes, or a function that fills the open temp file itself (e.g. a copy). */
export type WriteData = string | Uint8Array | ((temp: FileHandle) => Promise<void>);

/** Test seams; not for production callers. */
export interface WriteHooks {
  /** Called once the parent directory is pinned and checked (real path), before anything is created in it. */
  afterParentPinned?: (parentReal: string) => Promise<void>;
  /** Called after the temp file is created and verified, before data is written. */
  afterTempCreated?: (tempPath: string) => Promise<void>;
}

async function lstatOrNull(p: string): Promise<Stats | null> {
  try {
    return await fs.lstat(p);
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return null;
    throw err;
  }
}

function tempName(name: string): string {
  // Keep the temp name under NAME_MAX (255 bytes) even for long target names.
  const stem = Buffer.byteLength(name) > 200 ? 'write' : name;
  // node:crypto is loaded on first write, not at server startup.
  const random = process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex');
  return `.${stem}.${random}.tmp`;
}

function isDirectoryError(input: string): PathError {
  return new PathError(
    'invalid',
    input,
    `${quote(input)} is a directory; only regular files can be written. Give a file path inside it.`,
  );
}

function missingParentError(input: string): PathError {
  return new PathError(
    'not_found',
    input,
    `The parent directory of ${quote(input)} does not exist; create it first (e.g. with create_directory).`,
  );
}

function parentError(err: unknown, input: string): unknown {
  const code = errnoOf(err);
  if (code === 'ENOENT') return missingParentError(input);
  if (code === 'ENOTDIR') {
    return new PathError(
      'not_a_directory',
      input,
      `A component of ${quote(input)} is a file, not a directory.`,
    );
  }
  return fsErrorToPathError(err, input);
}

/**
 * The directory a new entry is created in: `at` is how to reach it (`/proc/self/fd/N` when pinned, else its real
 * path), `real` its real path (checked: inside the roots). `release` closes the pin.
 */
export interface ParentDir {
  at: string;
  real: string;
  release(): void;
}

/**
 * Pin the parent directory of `resolved` (O_PATH | O_DIRECTORY, symlinks followed) and check that its real path
 * is inside the roots; everything created afterwards goes through `at`, so a parent swapped for a symlink later
 * cannot redirect it. Without pinning (no /proc): the real parent re-checked now, used by path.
 * Errors: PathError 'not_found' (missing parent), 'not_a_directory', 'outside'.
 */
export async function pinParent(roots: AllowedRoots, resolved: ResolvedPath): Promise<ParentDir> {
  const parent = path.dirname(resolved.real);
  let pin: DirPin | null;
  try {
    pin = await pinDirectory(parent, true);
  } catch (err) {
    throw parentError(err, resolved.input);
  }
  if (!pin) {
    const real = await checkParent(roots, resolved);
    return { at: real, real, release: () => {} };
  }
  if (!roots.containsReal(pin.real)) {
    unpin(pin);
    throw await changedError(roots, resolved.real, resolved.input);
  }
  const held = pin;
  return { at: held.at, real: held.real, release: () => unpin(held) };
}

/** The real parent directory of a resolved target, re-checked now: must exist, be a directory and be inside. */
async function checkParent(roots: AllowedRoots, resolved: ResolvedPath): Promise<string> {
  const parent = path.dirname(resolved.real);
  let parentReal: string;
  try {
    parentReal = await fs.realpath(parent);
  } catch (err) {
    throw parentError(err, resolved.input);
  }
  if (!roots.containsReal(parentReal)) throw await changedError(roots, resolved.real, resolved.input);
  if (!(await fs.stat(parentReal)).isDirectory()) {
    throw new PathError(
      'not_a_directory',
      resolved.input,
      `The parent of ${quote(resolved.input)} is not a directory.`,
    );
  }
  return parentReal;
}

/**
 * Write an already resolved target atomically (see {@link writeFileAtomic}); split out so tests can swap paths
 * between resolve and write, and inject failures through `hooks`.
 */
export async function writeResolved(
  roots: AllowedRoots,
  resolved: ResolvedPath,
  data: WriteData,
  opts: WriteOptions = {},
  hooks: WriteHooks = {},
): Promise<ResolvedPath> {
  const { input } = resolved;
  // An allowed directory itself: its parent is outside, which must not read as "changed" or "outside".
  if (roots.roots.some((r) => r.real === resolved.real)) throw isDirectoryError(input);
  const parent = await pinParent(roots, resolved);
  try {
    await hooks.afterParentPinned?.(parent.real);
    const name = path.basename(resolved.real);
    const target = path.join(parent.real, name);
    const targetAt = `${parent.at}/${name}`;

    const existing = await lstatOrNull(targetAt).catch((err: unknown) => {
      throw fsErrorToPathError(err, input);
    });
    if (existing?.isSymbolicLink()) throw await changedError(roots, target, input); // appeared after resolve
    if (existing?.isDirectory()) throw isDirectoryError(input);
    if (existing && !existing.isFile()) {
      throw new PathError(
        'invalid',
        input,
        `${quote(input)} is ${kindOf(existing)}; only regular files can be written.`,
      );
    }
    if (opts.exclusive && (existing || (await lstatOrNull(resolved.absolute).catch(() => null)))) {
      throw existsError(input);
    }
    // Replacing by rename needs only the directory's write permission: without this check a file the server
    // may not write (mode 0444, or another user's 0644) would be replaced all the same, as `>` would not.
    if (existing) await assertWritable(targetAt, existing.mode, input);

    const tempBase = tempName(name);
    const temp = path.join(parent.real, tempBase);
    const tempAt = `${parent.at}/${tempBase}`;
    let handle: FileHandle | undefined;
    let created = false;
    try {
      // 0o666 lets the umask decide a new file's mode; an existing file's mode is restored below.
      handle = await fs.open(tempAt, TEMP_FLAGS, 0o666);
      created = true;
      await verifyOpened(roots, handle, temp, input);
      await hooks.afterTempCreated?.(temp);
      if (typeof data === 'function') await data(handle);
      else await handle.writeFile(data);
      if (!existing && opts.mode !== undefined) await handle.chmod(opts.mode & 0o777 & ~process.umask());
      if (existing) {
        await handle.chmod(existing.mode & 0o7777); // FS-13: a 0600 file stays 0600
        if (existing.uid !== process.getuid?.() || existing.gid !== process.getgid?.()) {
          await handle.chown(existing.uid, existing.gid).catch(() => {}); // only root may; best effort
        }
      }
      await handle.sync();
      await handle.close();
      handle = undefined;
      // Both names go through the same directory (pinned: renameat semantics). rename replaces a (racing)
      // symlink itself, never its target.
      if (opts.exclusive) await commitExclusive(tempAt, targetAt, input);
      else await fs.rename(tempAt, targetAt);
    } catch (err) {
      await handle?.close().catch(() => {});
      // Through the same directory the temp file was created in: never a same-named file elsewhere.
      if (created) await fs.rm(tempAt, { force: true }).catch(() => {});
      if (errnoOf(err) === 'EISDIR') throw isDirectoryError(input); // a directory appeared at the name
      throw err instanceof PathError ? err : fsErrorToPathError(err, input);
    }
    await syncDir(parent.at);
    return { ...resolved, real: target, exists: true };
  } finally {
    parent.release();
  }
}

/** PathError 'invalid' unless this process may write the existing file at `at` (access(2) W_OK). */
async function assertWritable(at: string, mode: number, input: string): Promise<void> {
  try {
    await fs.access(at, constants.W_OK);
  } catch (err) {
    const code = errnoOf(err);
    if (code !== 'EACCES' && code !== 'EPERM') throw fsErrorToPathError(err, input);
    throw new PathError(
      'invalid',
      input,
      `${quote(input)} is not writable by this server (mode ${(mode & 0o7777).toString(8).padStart(4, '0')}); ` +
        'it was not changed. Change its permissions first, or write to another path.',
    );
  }
}

/** Codes meaning "this filesystem cannot hard-link", so the checked-rename fallback applies. */
const NO_LINK = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK']);

function existsError(input: string): PathError {
  return new PathError('exists', input, `${quote(input)} already exists; choose another name.`);
}

/** No-overwrite commit: link(2) fails with EEXIST atomically; fall back to a checked rename where links are unsupported. */
async function commitExclusive(temp: string, target: string, input: string): Promise<void> {
  try {
    await fs.link(temp, target);
  } catch (err) {
    const code = errnoOf(err) ?? '';
    if (code === 'EEXIST') throw existsError(input);
    if (!NO_LINK.has(code)) throw err;
    if (await lstatOrNull(target)) throw existsError(input);
    await fs.rename(temp, target);
    return;
  }
  await fs.unlink(temp);
}

/** fsync a directory so a rename survives a crash; best effort (not all filesystems allow it). */
async function syncDir(dir: string): Promise<void> {
  try {
    const h = await fs.open(dir, constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      await h.sync();
    } finally {
      await h.close();
    }
  } catch {
    // durability nicety only
  }
}

/**
 * Atomically write `data` (string → UTF-8, or bytes) to `input` inside the roots; the file may not exist yet.
 * Resolves the path (a final symlink is followed: a link to a file inside writes that file, a link outside is
 * 'outside'), pins the real parent directory (Linux: O_PATH, then everything goes through /proc/self/fd/N, so a
 * parent swapped for a symlink cannot redirect any step) and checks it is inside, writes a temp file
 * `.<name>.<random>.tmp` (O_CREAT|O_EXCL|O_NOFOLLOW) in it, verifies the temp fd is inside, fsyncs, keeps an
 * existing file's mode (new files: 0o666 & ~umask), then renames it over the target in the same directory. The
 * temp file is removed (through the same directory) on any failure.
 * Returns the resolved target (exists: true).
 * Errors: PathError 'invalid' | 'outside' (also for a parent that is a symlink to outside — never "not found") |
 * 'not_found' (missing parent) | 'not_a_directory' | 'exists' (opts.exclusive).
 */
export async function writeFileAtomic(
  roots: AllowedRoots,
  input: string,
  data: string | Uint8Array,
  opts: WriteOptions = {},
): Promise<ResolvedPath> {
  const resolved = await roots.resolve(input);
  return writeResolved(roots, resolved, data, opts);
}
