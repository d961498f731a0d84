/**
 * Pinned directories (Linux): a directory opened with `O_PATH | O_DIRECTORY` is held by inode, not by name. Its
 * real path is read from the kernel (`readlink(/proc/self/fd/N)`, kernel memory only) and checked once; every
 * later operation goes through `/proc/self/fd/N/<name>`, which the kernel resolves from the pinned inode, so a
 * directory swapped for a symlink after the check cannot redirect it (`<name>` is looked up in the pinned
 * directory: openat/mkdirat/renameat semantics without a dirfd API in Node).
 *
 * Where this is unavailable (not Linux, an O_PATH value we do not know, no /proc) {@link pinDirectory} returns
 * null and callers take their path-based fallback (check, use, re-check).
 */
import { closeSync, constants, fstatSync, open, readlinkSync, type Stats } from 'node:fs';
import { errnoOf } from './errors.js';
import { fromFsName, toFsPath } from './fs-names.js';

/** O_PATH (asm-generic value, Linux ≥ 2.6.39): shared by every architecture Node ships for except alpha/parisc/sparc. */
export const O_PATH = 0o10000000;
const PINNED_ARCHES = new Set(['x64', 'arm64', 'arm', 'ia32', 'ppc64', 'riscv64', 's390x', 'loong64']);
/** O_DIRECTORY from Node (its value differs between architectures). */
const DIR_FLAGS = O_PATH | constants.O_DIRECTORY;

/** False once pinning proved unavailable here (no O_PATH or no /proc): never tried again. */
let available = process.platform === 'linux' && PINNED_ARCHES.has(process.arch);

/** True while O_PATH pins and /proc/self/fd are believed to work here. */
export function pinningAvailable(): boolean {
  return available;
}

/** Records that pinning does not work here (callers fall back from now on). */
export function pinningUnavailable(): void {
  available = false;
}

/** The path through which the kernel reaches the inode pinned by `fd` itself (a "magic link"). */
export function procPath(fd: number): string {
  return `/proc/self/fd/${fd}`;
}

/** open(2) through the callback API: a raw fd, no FileHandle (cheaper when it is closed right away). */
export function openFd(p: string, flags: number, mode?: number): Promise<number> {
  return new Promise((resolve, reject) => {
    open(toFsPath(p), flags, mode, (error, fd) => (error ? reject(error) : resolve(fd)));
  });
}

/** A pinned directory. Close it with {@link unpin}. */
export interface DirPin {
  /** The O_PATH fd. */
  readonly fd: number;
  /** `/proc/self/fd/<fd>`: `${at}/${name}` names entry `name` of the pinned directory, whatever its path now. */
  readonly at: string;
  /** The kernel's path of the pinned directory when it was pinned (to be checked by the caller). */
  readonly real: string;
  /** Device and inode: to tell whether a later pin is of the same directory. */
  readonly dev: number;
  readonly ino: number;
}

function errno(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code });
}

/** fstat + readlink of a fresh O_PATH fd (synchronous: kernel memory only). Closes the fd on failure. */
function describeFd(fd: number): { real: string; stat: Stats } {
  let stat: Stats;
  let real: string;
  try {
    stat = fstatSync(fd);
    real = fromFsName(readlinkSync(procPath(fd), { encoding: 'buffer' }));
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  // The kernel marks an unlinked inode " (deleted)"; such a directory has no entries and no usable path.
  if (real.endsWith(' (deleted)') || !real.startsWith('/')) {
    closeSync(fd);
    throw errno('ENOENT', 'the pinned entry was removed');
  }
  return { real, stat };
}

function toPin(fd: number): DirPin {
  const { real, stat } = describeFd(fd);
  return { fd, at: procPath(fd), real, dev: stat.dev, ino: stat.ino };
}

/**
 * Pin the directory at absolute path `p`. `follow: false` adds O_NOFOLLOW: a final symlink fails with ENOTDIR
 * (or ELOOP). Returns null when pinning is unavailable on this system. Rejects with open(2)'s errno error
 * (ENOENT, ENOTDIR, ELOOP, EACCES, ENAMETOOLONG) otherwise. The caller must check `real` (containment) before
 * using the pin, and {@link unpin} it.
 */
export async function pinDirectory(p: string, follow: boolean): Promise<DirPin | null> {
  if (!available) return null;
  let fd: number;
  try {
    fd = await openFd(p, DIR_FLAGS | (follow ? 0 : constants.O_NOFOLLOW));
  } catch (error) {
    if (errnoOf(error) === 'EINVAL') {
      available = false; // kernel without O_PATH
      return null;
    }
    throw error;
  }
  try {
    return toPin(fd);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') throw error;
    available = false; // no /proc (or fstat refused an O_PATH fd): fall back from now on
    return null;
  }
}

/**
 * Pin entry `name` (one path segment) of a pinned directory as a directory, never following a symlink: a
 * symlink, a file or a missing entry rejects (ENOTDIR, ELOOP, ENOENT). The child is inside its parent by
 * construction, but the caller still checks `real`: the parent may have been moved meanwhile.
 */
export async function pinChild(parent: Pick<DirPin, 'at'>, name: string): Promise<DirPin> {
  const fd = await openFd(`${parent.at}/${name}`, DIR_FLAGS | constants.O_NOFOLLOW);
  return toPin(fd);
}

/**
 * Where entry `name` of a pinned directory leads, symlinks followed by the kernel (a relative link target
 * is resolved from the pinned directory): the real path and fstat of the target, which is pinned with O_PATH
 * only (never opened: no device driver runs, a FIFO cannot block) and released again. Null when it dangles,
 * loops or cannot be looked up. The caller checks containment of `real`.
 */
export async function pinTarget(
  dir: Pick<DirPin, 'at'>,
  name: string,
): Promise<{ real: string; stat: Stats } | null> {
  let fd: number;
  try {
    fd = await openFd(`${dir.at}/${name}`, O_PATH);
  } catch {
    return null;
  }
  try {
    const described = describeFd(fd);
    closeSync(fd);
    return described;
  } catch {
    return null; // describeFd closed it
  }
}

/** Closes a pin (an O_PATH fd: closing it never reaches the filesystem). */
export function unpin(pin: Pick<DirPin, 'fd'>): void {
  try {
    closeSync(pin.fd);
  } catch {
    // already closed
  }
}

/** The kind of a target in listings: 'file', 'directory' or 'other'. */
export function targetKind(st: Stats): 'file' | 'directory' | 'other' {
  return st.isDirectory() ? 'directory' : st.isFile() ? 'file' : 'other';
}
