/**
 * V8 code cache files for one bundle (used by launcher.ts).
 *
 * A cache file holds V8 bytecode that V8 runs as is, and release builds of V8 neither checksum it
 * (a zeroed block crashed the process on every start) nor check more of the source than its
 * length. So:
 * - the directory must be one no other user can change: every component of its real path owned by
 *   this uid or root and writable by no one else (a root-owned sticky directory such as /tmp
 *   excepted below it), the last one this uid's own — else no cache is used. This also keeps a root
 *   process with another user's HOME from using a cache that user could swap;
 * - each file starts with a SHA-256 of its payload, checked before V8 sees it; it is opened without
 *   following symlinks or blocking (a FIFO), and used only when it is a regular file of this uid
 *   with one link;
 * - files are written to a new temp file (O_EXCL), synced, then renamed.
 * Only the last one or two levels are created (`refmcp`, `.cache/refmcp`): never HOME or
 * XDG_CACHE_HOME, and nothing relative to the working directory. Without uids (Windows) there is
 * no cache.
 *
 * File names: `<package>-<hash of Node version, arch and source>-<hash of Node's flags>.bin`. A new
 * version of the package deletes the files of other versions when it saves its own; other flag
 * sets of the same version keep theirs, so a host and a shell with different NODE_OPTIONS do not
 * overwrite each other's. Temp files a killed process left are deleted after a minute.
 */
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, isAbsolute, join } from 'node:path';

export interface CompileCache {
  /** The bundle's source text (read once, here). */
  source: string;
  /** Code cache saved for exactly this source and flag set by an earlier run, if any. */
  data?: Buffer;
  /** Saves `data` as this source's cache and deletes the package's caches of other versions. Never throws. */
  save(data: Buffer): void;
}

const DIGEST_BYTES = 32;
/** Larger files are not read (the servers' caches are 0.6–1.5 MB). */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;
/** Age in ms after which a temp file is a killed process's leftover. */
const STALE_TEMP_MS = 60_000;

/**
 * The code cache of the bundle at `file` (absolute path) of npm package `packageName`.
 * Never throws for cache problems (only when `file` cannot be read).
 */
export function compileCache(
  file: string,
  packageName: string,
  env: NodeJS.ProcessEnv = process.env,
): CompileCache {
  const source = readFileSync(file, 'utf8');
  const uid = process.getuid?.();
  const dir = env.NODE_DISABLE_COMPILE_CACHE || uid === undefined ? undefined : cacheDir(env, uid);
  if (!dir || uid === undefined) return { source, save: () => {} };
  const prefix = `${packageName.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-/, '')}-`;
  const build = `${prefix}${sha256(`${process.version}\0${process.arch}\0${source}`).slice(0, 24)}-`;
  const name = `${build}${sha256(`${process.execArgv.join('\0')}\0${env.NODE_OPTIONS ?? ''}`).slice(0, 8)}.bin`;
  const path = join(dir, name);
  const save = (made: Buffer) => {
    const temp = `${path}.${process.pid}.tmp`;
    let fd: number | undefined;
    try {
      fd = openSync(
        temp,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        0o600,
      );
      writeAll(fd, createHash('sha256').update(made).digest());
      writeAll(fd, made);
      fsyncSync(fd);
      closeSync(fd);
      fd = undefined;
      renameSync(temp, path);
      removeOthers(dir, prefix, build, Date.now());
    } catch {
      // A full disk or a race with another start: the next start tries again.
      if (fd !== undefined) closeSync(fd);
      try {
        unlinkSync(temp);
      } catch {
        // never created
      }
    }
  };
  return { source, data: readVerified(path, uid), save };
}

/** The payload of the cache file at `path` when it is this uid's regular file and its digest matches. */
function readVerified(path: string, uid: number): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.uid !== uid || stat.nlink !== 1 || (stat.mode & 0o022) !== 0) return undefined;
    if (stat.size <= DIGEST_BYTES || stat.size > MAX_CACHE_BYTES) return undefined;
    const bytes = Buffer.allocUnsafe(stat.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) return undefined;
      read += n;
    }
    const payload = bytes.subarray(DIGEST_BYTES);
    const digest = createHash('sha256').update(payload).digest();
    return digest.equals(bytes.subarray(0, DIGEST_BYTES)) ? payload : undefined;
  } catch {
    return undefined; // none yet, or not readable as one
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Deletes the package's (`prefix`) caches of builds other than `build`, and stale temp files. */
function removeOthers(dir: string, prefix: string, build: string, now: number): void {
  for (const other of readdirSync(dir)) {
    const otherPath = join(dir, other);
    try {
      if (other.endsWith('.bin') && other.startsWith(prefix) && !other.startsWith(build))
        unlinkSync(otherPath);
      else if (other.endsWith('.tmp') && now - lstatSync(otherPath).mtimeMs > STALE_TEMP_MS)
        unlinkSync(otherPath);
    } catch {
      // gone already
    }
  }
}

function writeAll(fd: number, bytes: Buffer): void {
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
}

/**
 * `$XDG_CACHE_HOME/refmcp`, `$HOME/.cache/refmcp`, then `<tmpdir>/refmcp-<uid>`: the first whose base
 * exists and whose real path passes {@link isSafeChain}.
 */
function cacheDir(env: NodeJS.ProcessEnv, uid: number): string | undefined {
  const candidates: [string | undefined, string[]][] = [
    [env.XDG_CACHE_HOME, ['refmcp']],
    [homeDir(), ['.cache', 'refmcp']],
    [tmpdir(), [`refmcp-${uid}`]],
  ];
  for (const [base, levels] of candidates) {
    if (!base || !isAbsolute(base)) continue;
    try {
      if (!statSync(base).isDirectory()) continue;
      let dir = base;
      for (const level of levels) {
        dir = join(dir, level);
        try {
          mkdirSync(dir, { mode: 0o700 });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
      }
      const real = realpathSync(dir);
      if (isSafeChain(real, uid)) return real;
    } catch {
      // not usable here: try the next
    }
  }
  return undefined;
}

function homeDir(): string | undefined {
  try {
    return homedir();
  } catch {
    return undefined; // no home directory
  }
}

/**
 * True when no user but `uid` and root can change `dir` (a real, absolute path) or any directory
 * above it: each is a directory owned by `uid` or root and writable by neither group nor others,
 * except a root-owned sticky directory above the last (others cannot rename or delete what is
 * not theirs there); `dir` itself is owned by `uid`.
 */
function isSafeChain(dir: string, uid: number): boolean {
  const last = lstatSync(dir);
  if (!last.isDirectory() || last.uid !== uid || (last.mode & 0o022) !== 0) return false;
  for (let above = dirname(dir), below = dir; above !== below; below = above, above = dirname(above)) {
    const stat = lstatSync(above);
    if (!stat.isDirectory() || (stat.uid !== uid && stat.uid !== 0)) return false;
    if ((stat.mode & 0o022) !== 0 && !((stat.mode & 0o1000) !== 0 && stat.uid === 0)) return false;
  }
  return true;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
