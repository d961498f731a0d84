/**
 * V8 code cache files for one bundle (used by launcher.ts).
 *
 * A cache file holds V8 bytecode that V8 runs as is, and release builds of V8 neither checksum it
 * (a zeroed block crashed the process on every start) nor check more of the source than its
 * length. So:
 * - the directory must be one no other user can change: its base (`$XDG_CACHE_HOME`, `$HOME`, the
 *   temp directory) and every directory above it owned by this uid or root and writable by no one
 *   else (a root-owned sticky directory such as /tmp excepted), checked on the path as written
 *   (its symlinks owned by this uid or root) and on its real path, before anything is created; the levels below it (`refmcp`, `.cache`) real directories, not symlinks,
 *   owned by this uid and writable by no one else. Else no cache is used. So a root process with
 *   another user's HOME uses no cache there and creates nothing in it;
 * - each file starts with a SHA-256 of its payload, checked before V8 sees it; it is opened without
 *   following symlinks or blocking (a FIFO), and used only when it is a regular file of this uid
 *   with one link;
 * - files are written to a new temp file (O_EXCL), synced, then renamed.
 * Only the last one or two levels are created (`refmcp`, `.cache/refmcp`): never HOME or
 * XDG_CACHE_HOME, and nothing relative to the working directory. "This uid" is the effective one;
 * a set-id process (real ≠ effective uid or gid) and Windows (no uids) use no cache.
 *
 * File names: `<package>-<hash of Node version, arch and source>-<hash of Node's flags>.bin`, so two
 * versions, Node versions or NODE_OPTIONS in use side by side (a host and a shell) keep a file each.
 * A save keeps the package's {@link KEPT_FILES} newest files and deletes its older ones, and its
 * temp files a killed process left over a minute ago; nothing else in the directory is touched.
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
  type Stats,
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
  /**
   * A second file for this source, kept the same way: the tools' JSON Schemas the server converted
   * (server/schema-cache.ts), so that a later start's first `tools/list` converts none. Absent
   * when no cache directory is usable.
   */
  schemas?: SideFile;
}

/** A cache file beside the code cache: read and written with the same checks. */
export interface SideFile {
  /** Its payload as last saved for this source, if any. Never throws. */
  load(): Buffer | undefined;
  /** Replaces it. Never throws. */
  save(data: Buffer): void;
}

const DIGEST_BYTES = 32;
/** Larger files are not read (the servers' caches are 0.6–1.5 MB). */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;
/** Age in ms after which a temp file is a killed process's leftover. */
const STALE_TEMP_MS = 60_000;
/** Cache files kept per package (builds × flag sets): at most ~6 MB for the largest server. */
const KEPT_FILES = 4;
/** The flags part of the schemas file's name (see {@link CompileCache.schemas}); kept as many. */
const SCHEMAS = 'schemas';

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
  // The effective uid owns what the process writes; a set-id process (real ≠ effective) uses no cache.
  const uid = process.geteuid?.();
  const setId = process.getuid?.() !== uid || process.getgid?.() !== process.getegid?.();
  const dir = env.NODE_DISABLE_COMPILE_CACHE || uid === undefined || setId ? undefined : cacheDir(env, uid);
  if (!dir || uid === undefined) return { source, save: () => {} };
  // `@refmcp/server-x` → `refmcp+server-x-`: no two package names give the same prefix.
  const prefix = `${packageName.replace(/^@/, '').replace('/', '+')}-`;
  const build = sha256(`${JSON.stringify(process.versions)}\0${process.arch}\0${source}`).slice(0, 24);
  const flags = sha256(`${process.execArgv.join('\0')}\0${env.NODE_OPTIONS ?? ''}`).slice(0, 8);
  const path = join(dir, `${prefix}${build}-${flags}.bin`);
  // Schemas do not depend on Node's flags: one file per build.
  const schemasPath = join(dir, `${prefix}${build}-${SCHEMAS}.bin`);
  return {
    source,
    data: readVerified(path, uid),
    save: (made) => writeVerified(dir, prefix, path, made),
    schemas: {
      load: () => readVerified(schemasPath, uid),
      save: (made) => writeVerified(dir, prefix, schemasPath, made),
    },
  };
}

/** Writes `made` with its digest to a new temp file, syncs it and renames it to `path`; then tidies the directory. */
function writeVerified(dir: string, prefix: string, path: string, made: Buffer): void {
  const temp = `${path}.${process.pid}.tmp`;
  let fd: number | undefined;
  let created = false;
  try {
    fd = openSync(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      0o600,
    );
    created = true;
    writeAll(fd, createHash('sha256').update(made).digest());
    writeAll(fd, made);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(temp, path);
    removeOld(dir, prefix, Date.now());
  } catch {
    // A full disk or a race with another start: the next start tries again.
    if (fd !== undefined) closeSync(fd);
    try {
      if (created) unlinkSync(temp); // never another writer's file
    } catch {
      // renamed already
    }
  }
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

/**
 * Deletes the package's (`prefix`) cache files but the {@link KEPT_FILES} newest of each kind (code,
 * schemas), and its stale temp files.
 */
function removeOld(dir: string, prefix: string, now: number): void {
  const ours = new RegExp(
    `^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[0-9a-f]{24}-([0-9a-f]{8}|${SCHEMAS})\\.bin(\\.\\d+\\.tmp)?$`,
  );
  const files = readdirSync(dir)
    .map((name) => ours.exec(name))
    .filter((m) => m !== null)
    .map((m) => ({
      name: m[0],
      schemas: m[1] === SCHEMAS,
      temp: m[2] !== undefined,
      mtime: lstatSync(join(dir, m[0])).mtimeMs,
    }));
  const newest = (schemas: boolean) =>
    files
      .filter((f) => !f.temp && f.schemas === schemas)
      .sort((a, b) => b.mtime - a.mtime)
      .slice(0, KEPT_FILES);
  const kept = [...newest(false), ...newest(true)];
  for (const f of files) {
    if (f.temp ? now - f.mtime <= STALE_TEMP_MS : kept.includes(f)) continue;
    try {
      unlinkSync(join(dir, f.name));
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
 * passes {@link isSafePath} and whose levels below it are, or can be made, this uid's own directories.
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
      // The path as given (its symlinks too: another user's link would choose where we write) and
      // the real path it leads to.
      if (!isSafeGivenPath(base, uid)) continue;
      let dir = realpathSync(base);
      if (!isSafePath(dir, uid)) continue;
      for (const level of levels) {
        dir = join(dir, level);
        try {
          mkdirSync(dir, { mode: 0o700 });
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        }
        // lstat: a symlink here (even to a safe place) is refused, so no one chooses where we write.
        const stat = lstatSync(dir);
        if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o022) !== 0) throw new Error('unsafe');
      }
      return dir;
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
 * True when no user but `uid` and root can change `path` (real, absolute) or what it names: it and
 * every directory above it are directories owned by `uid` or root that neither group nor others can
 * write, except root-owned sticky ones (others cannot rename or delete what is not theirs there).
 */
function isSafePath(path: string, uid: number): boolean {
  for (let dir = path, parent = dirname(path); ; dir = parent, parent = dirname(parent)) {
    const stat = lstatSync(dir);
    if (!stat.isDirectory() || !isSafeEntry(stat, uid)) return false;
    if (parent === dir) return true;
  }
}

/** True when every component of `path` (absolute) as written — a directory or a symlink, not followed — is {@link isSafeEntry}. */
function isSafeGivenPath(path: string, uid: number): boolean {
  let prefix = '';
  for (const part of path.split('/').filter(Boolean)) {
    prefix += `/${part}`;
    if (!isSafeEntry(lstatSync(prefix), uid)) return false;
  }
  return true;
}

/** A symlink or directory owned by `uid` or root; a directory writable by no one else, unless root-owned and sticky. */
function isSafeEntry(stat: Stats, uid: number): boolean {
  if (stat.uid !== uid && stat.uid !== 0) return false;
  if (stat.isSymbolicLink()) return true;
  if (!stat.isDirectory()) return false;
  return (stat.mode & 0o022) === 0 || ((stat.mode & 0o1000) !== 0 && stat.uid === 0);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
