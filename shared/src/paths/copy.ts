/**
 * Copying files and directory trees inside the roots. A file is copied through the atomic write
 * (temp file in the pinned destination directory, then rename; no-overwrite by link(2)); a tree is
 * built in a temp directory beside the destination, walked through pinned directories (O_PATH,
 * O_NOFOLLOW: a directory swapped for a symlink mid-walk cannot lead the copy outside), and renamed
 * into place at the end, so the destination appears whole or not at all.
 */
import { constants } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { isWithin } from './canonical.js';
import { errnoOf, fsErrorToPathError, PathError, quote } from './errors.js';
import { fs } from './fs-names.js';
import { openInside } from './open.js';
import { type DirPin, pinChild, pinDirectory, unpin } from './pin.js';
import type { ResolvedPath } from './resolve.js';
import type { AllowedRoots } from './roots.js';
import { changedError } from './verify.js';
import { pinParent, writeResolved } from './write.js';

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CREATE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const CHUNK = 1024 * 1024;

export interface CopyOptions {
  /** Replace an existing destination file (never a directory). Default false: an existing destination is 'exists'. */
  overwrite?: boolean;
  /** Most entries (files, directories, symlinks) one tree copy makes; default 10,000. */
  maxEntries?: number;
  /** Deepest directory level of a tree; default 64. */
  maxDepth?: number;
  /** Aborts the copy; what was made so far is removed. */
  signal?: AbortSignal;
}

export interface Copied {
  from: ResolvedPath;
  to: ResolvedPath;
  kind: 'file' | 'directory';
  /** Files, directories (the top one included) and symlinks made. */
  entries: number;
  bytes: number;
  /** Sockets, FIFOs and devices in a tree, which are not copied. */
  skipped: number;
  /** True when an existing destination file was replaced. */
  replaced: boolean;
}

/** Copy bytes from `from` to `to`, `signal` checked between chunks. Returns the byte count. */
async function pump(from: FileHandle, to: FileHandle, signal?: AbortSignal): Promise<number> {
  const buffer = Buffer.allocUnsafe(CHUNK);
  let total = 0;
  for (;;) {
    signal?.throwIfAborted();
    const { bytesRead } = await from.read(buffer, 0, CHUNK, null);
    if (bytesRead === 0) return total;
    let written = 0;
    while (written < bytesRead) {
      written += (await to.write(buffer, written, bytesRead - written)).bytesWritten;
    }
    total += bytesRead;
  }
}

function existsError(input: string): PathError {
  return new PathError(
    'exists',
    input,
    `Cannot copy: destination ${quote(input)} exists; copying never overwrites unless asked (overwrite: true, files only).`,
  );
}

interface TreeState {
  roots: AllowedRoots;
  entries: number;
  bytes: number;
  skipped: number;
  maxEntries: number;
  maxDepth: number;
  signal?: AbortSignal;
  input: string;
}

function count(state: TreeState): void {
  state.entries++;
  if (state.entries > state.maxEntries) {
    throw new PathError(
      'invalid',
      state.input,
      `Cannot copy ${quote(state.input)}: it has more than ${state.maxEntries} entries; copy its parts one by one.`,
    );
  }
}

/**
 * Copies the contents of pinned directory `src` into the new, empty directory reached as `dstAt`,
 * which ends up at `dstReal`. A symlink is copied only when its target, read from where the copy
 * will stand, is inside the allowed directories: a relative link moved to another depth could
 * otherwise point outside them (it is skipped and counted instead).
 */
async function copyTree(
  src: Pick<DirPin, 'at'>,
  dstAt: string,
  dstReal: string,
  depth: number,
  state: TreeState,
): Promise<void> {
  if (depth > state.maxDepth) {
    throw new PathError(
      'invalid',
      state.input,
      `Cannot copy ${quote(state.input)}: deeper than ${state.maxDepth} levels.`,
    );
  }
  const names = await fs.readdir(src.at);
  for (const name of names) {
    state.signal?.throwIfAborted();
    const srcAt = `${src.at}/${name}`;
    const st = await fs.lstat(srcAt);
    const target = `${dstAt}/${name}`;
    if (st.isDirectory()) {
      count(state);
      const child = await pinChild(src, name); // O_NOFOLLOW: a symlink swapped in fails here
      try {
        await fs.mkdir(target, { mode: 0o700 });
        await copyTree(child, target, path.join(dstReal, name), depth + 1, state);
        await fs.chmod(target, st.mode & 0o7777);
      } finally {
        unpin(child);
      }
    } else if (st.isSymbolicLink()) {
      const link = await fs.readlink(srcAt);
      if (!state.roots.containsReal(path.resolve(dstReal, link))) {
        state.skipped++;
        continue;
      }
      count(state);
      await fs.symlink(link, target); // the link itself, never what it points to
    } else if (st.isFile()) {
      count(state);
      const from = await fs.open(srcAt, READ_FLAGS);
      try {
        if (!(await from.stat()).isFile()) throw changedWhileCopying(state.input);
        const to = await fs.open(target, CREATE_FLAGS, st.mode & 0o777);
        try {
          state.bytes += await pump(from, to, state.signal);
          await to.chmod(st.mode & 0o7777);
        } finally {
          await to.close();
        }
      } finally {
        await from.close();
      }
    } else {
      state.skipped++;
    }
  }
}

function changedWhileCopying(input: string): PathError {
  return new PathError('invalid', input, `${quote(input)} changed while it was being copied; retry.`);
}

function tempName(name: string): string {
  const stem = Buffer.byteLength(name) > 200 ? 'copy' : name;
  const random = process.getBuiltinModule('node:crypto').randomBytes(6).toString('hex');
  return `.${stem}.${random}.tmp`;
}

/** A directory tree: built in a temp directory beside the destination, renamed into a reserved name at the end. */
async function copyDirectory(
  roots: AllowedRoots,
  src: ResolvedPath,
  dst: ResolvedPath,
  to: string,
  opts: CopyOptions,
): Promise<Copied> {
  if (isWithin(dst.real, src.real)) {
    throw new PathError('invalid', src.input, `Cannot copy directory ${quote(src.input)} into itself.`);
  }
  const srcPin = await pinDirectory(src.real, false);
  const source: Pick<DirPin, 'at'> = srcPin ?? { at: src.real };
  if (srcPin && !roots.containsReal(srcPin.real)) {
    unpin(srcPin);
    throw await changedError(roots, src.real, src.input);
  }
  const parent = await pinParent(roots, dst);
  const name = path.basename(dst.real);
  const tempAt = `${parent.at}/${tempName(name)}`;
  const state: TreeState = {
    roots,
    entries: 1,
    bytes: 0,
    skipped: 0,
    maxEntries: opts.maxEntries ?? 10_000,
    maxDepth: opts.maxDepth ?? 64,
    signal: opts.signal,
    input: src.input,
  };
  let made = false;
  try {
    const mode = (await fs.stat(source.at)).mode & 0o7777;
    await fs.mkdir(tempAt, { mode: 0o700 });
    made = true;
    await copyTree(source, tempAt, path.join(parent.real, name), 1, state);
    await fs.chmod(tempAt, mode);
    const finalAt = `${parent.at}/${name}`;
    try {
      await fs.mkdir(finalAt); // reserves the name: EEXIST is atomic
    } catch (err) {
      if (errnoOf(err) === 'EEXIST') throw existsError(to);
      throw err;
    }
    try {
      await fs.rename(tempAt, finalAt); // onto our own empty placeholder only
    } catch (err) {
      await fs.rmdir(finalAt).catch(() => {});
      throw err;
    }
    made = false;
  } catch (err) {
    if (made) await fs.rm(tempAt, { recursive: true, force: true }).catch(() => {});
    throw err;
  } finally {
    if (srcPin) unpin(srcPin);
    parent.release();
  }
  return {
    from: src,
    to: { ...dst, real: path.join(parent.real, name), exists: true },
    kind: 'directory',
    entries: state.entries,
    bytes: state.bytes,
    skipped: state.skipped,
    replaced: false,
  };
}

/**
 * Copy `from` (a file, or a directory with everything in it) to `to`, both inside the roots. The
 * source is resolved with symlinks followed and opened with the read checks of {@link openInside};
 * a file is written through {@link writeResolved} (atomic; new files get the source's mode, a replaced
 * file keeps its own); a tree copies symlinks as symlinks (those whose target, read from the copy, is inside the
 * allowed directories) and skips sockets, FIFOs, devices and the other symlinks.
 * Without `overwrite` an existing destination is refused; a directory is never copied over anything.
 * Errors: PathError 'not_found' | 'outside' | 'exists' | 'not_a_directory' | 'invalid' (into itself,
 * too many entries or levels, a destination that is a directory for a file).
 */
export async function copyInside(
  roots: AllowedRoots,
  from: string,
  to: string,
  opts: CopyOptions = {},
): Promise<Copied> {
  try {
    const src = await roots.resolve(from, { mustExist: true });
    const dst = await roots.resolve(to);
    if (src.real === dst.real) throw new PathError('invalid', to, `Cannot copy ${quote(from)} onto itself.`);
    const st = await fs.stat(src.real);
    if (st.isDirectory()) {
      if (dst.exists) throw existsError(to);
      return await copyDirectory(roots, src, dst, to, opts);
    }
    if (dst.exists && !opts.overwrite) throw existsError(to);
    const opened = await openInside(roots, from);
    let bytes = 0;
    try {
      const written = await writeResolved(
        roots,
        dst,
        async (temp) => {
          bytes = await pump(opened.handle, temp, opts.signal);
        },
        { exclusive: !opts.overwrite, mode: opened.stat.mode },
      );
      return { from: src, to: written, kind: 'file', entries: 1, bytes, skipped: 0, replaced: dst.exists };
    } finally {
      await opened.handle.close().catch(() => {});
    }
  } catch (err) {
    throw err instanceof PathError ? err : fsErrorToPathError(err, from);
  }
}
