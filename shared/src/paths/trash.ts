/**
 * Moving an entry inside the roots to the user's trash, restorable from any desktop's trash, never
 * unlinked. Implements the part of the freedesktop.org Trash specification 1.0
 * (https://specifications.freedesktop.org/trash-spec/1.0/) that trashing needs:
 * - the home trash `$XDG_DATA_HOME/Trash` (default `~/.local/share/Trash`) for entries on its device;
 * - for another device, its top directory's `$topdir/.Trash/$uid` (only when `$topdir/.Trash` is a
 *   directory, not a symlink, with the sticky bit) or else `$topdir/.Trash-$uid`; if neither can be
 *   used the entry is refused (the spec's other choice, copying it into the home trash, is not taken);
 * - `info/<name>.trashinfo` created first with O_EXCL (it reserves `<name>`), `Path=` the absolute
 *   original path URL-escaped byte by byte (RFC 2396), `DeletionDate=` local time `YYYY-MM-DDThh:mm:ss`;
 *   then the entry renamed to `files/<name>`; a clash of names takes `<name>.2`, `<name>.3`, ….
 * The `trash` npm package was not used: it works on path strings (no pinned directories, so a parent
 * swapped for a symlink between check and rename would move something outside), expands globs, drops
 * missing paths silently, and falls back to copying across devices.
 */
import { constants, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { errnoOf, fsErrorToPathError, PathError, quote } from './errors.js';
import { fs, pathBytes } from './fs-names.js';
import { type DirPin, pinDirectory, unpin } from './pin.js';
import type { ResolvedPath } from './resolve.js';
import type { AllowedRoots } from './roots.js';
import { pinParent } from './write.js';

/** O_EXCL|O_NOFOLLOW: the info file reserves its name and cannot be a planted symlink. */
const INFO_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
/** Names tried for one entry before giving up (`name`, `name.2`, … `name.100`). */
const MAX_NAME_TRIES = 100;

export interface TrashOptions {
  /** Trash a directory that has entries (with everything in it). Without it only an empty one is trashed. */
  recursive?: boolean;
  /** The home trash directory; default `$XDG_DATA_HOME/Trash` or `~/.local/share/Trash`. */
  homeTrash?: string;
}

export interface Trashed {
  /** The entry as it was resolved (real = its former path). */
  from: ResolvedPath;
  /** What was trashed. */
  kind: 'file' | 'directory' | 'symlink' | 'other';
  /** The trash directory used (holds `files/` and `info/`). */
  trash: string;
  /** Where the entry now is: `<trash>/files/<name>`. */
  trashedAs: string;
}

/** The home trash: `$XDG_DATA_HOME/Trash` (an absolute XDG_DATA_HOME only, per the XDG Base Directory spec). */
export function homeTrashDir(env: NodeJS.ProcessEnv = process.env): string {
  const data = env.XDG_DATA_HOME;
  return path.join(data && path.isAbsolute(data) ? data : path.join(homedir(), '.local', 'share'), 'Trash');
}

/** `Path=` value: each byte of the absolute path outside RFC 2396's unreserved set and `/` as %XX. */
export function trashInfoPath(absolute: string): string {
  let out = '';
  for (const byte of pathBytes(absolute)) {
    const c = String.fromCharCode(byte);
    out +=
      /[A-Za-z0-9\-_.!~*'()/]/.test(c) && byte < 0x80
        ? c
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** `DeletionDate=` value: local time, `YYYY-MM-DDThh:mm:ss`. */
export function trashInfoDate(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return (
    `${date.getFullYear()}-${p(date.getMonth() + 1)}-${p(date.getDate())}` +
    `T${p(date.getHours())}:${p(date.getMinutes())}:${p(date.getSeconds())}`
  );
}

/** The content of a `.trashinfo` file. */
export function trashInfo(absolute: string, date: Date): string {
  return `[Trash Info]\nPath=${trashInfoPath(absolute)}\nDeletionDate=${trashInfoDate(date)}\n`;
}

function kindOfEntry(st: Stats): Trashed['kind'] {
  if (st.isSymbolicLink()) return 'symlink';
  if (st.isDirectory()) return 'directory';
  return st.isFile() ? 'file' : 'other';
}

/** A directory made if missing (mode 0700), which must then be a real directory (not a symlink) of ours. */
async function ownDirectory(dir: string, requireOwner: boolean): Promise<void> {
  try {
    await fs.mkdir(dir, { mode: 0o700 });
  } catch (err) {
    if (errnoOf(err) !== 'EEXIST') throw err;
  }
  const st = await fs.lstat(dir);
  if (!st.isDirectory()) throw new Error(`${dir} is not a directory`);
  if (requireOwner && st.uid !== process.getuid?.()) throw new Error(`${dir} belongs to another user`);
}

/** The top directory of the mount `real` is on: the highest ancestor on the same device. */
async function topDirOf(real: string, dev: number): Promise<string> {
  let dir = real;
  for (;;) {
    const up = path.dirname(dir);
    if (up === dir) return dir;
    if ((await fs.stat(up)).dev !== dev) return dir;
    dir = up;
  }
}

/** The trash directory for an entry on device `dev` whose parent is `parentReal`; created as the spec says. */
async function trashDirFor(parentReal: string, dev: number, homeTrash: string): Promise<string> {
  await fs.mkdir(homeTrash, { recursive: true, mode: 0o700 });
  if ((await fs.stat(homeTrash)).dev === dev) return homeTrash;
  const top = await topDirOf(parentReal, dev);
  const uid = String(process.getuid?.() ?? 0);
  const shared = path.join(top, '.Trash');
  const st = await fs.lstat(shared).catch(() => null);
  // (1) an administrator-made $topdir/.Trash: a directory, not a symlink, sticky.
  if (st?.isDirectory() && (st.mode & 0o1000) !== 0 /* S_ISVTX */) {
    const mine = path.join(shared, uid);
    try {
      await ownDirectory(mine, true);
      return mine;
    } catch {
      // fall through to (2), as the spec says
    }
  }
  // (2) $topdir/.Trash-$uid.
  const own = path.join(top, `.Trash-${uid}`);
  await ownDirectory(own, true);
  return own;
}

async function pinTrashSub(
  trash: string,
  sub: 'files' | 'info',
): Promise<DirPin | { at: string; fd?: undefined }> {
  const dir = path.join(trash, sub);
  await ownDirectory(dir, false);
  const pin = await pinDirectory(dir, false);
  return pin ?? { at: dir };
}

function trashName(base: string, n: number): string {
  const stem = Buffer.byteLength(base) > 200 ? 'trashed' : base; // `<name>.trashinfo` stays under NAME_MAX
  return n === 1 ? stem : `${stem}.${n}`;
}

/**
 * Move entry `input` (a final symlink is trashed itself, not its target) to the trash. The entry's
 * parent is pinned and checked inside the roots, and the rename goes through that pin and the pinned
 * `files/` directory, so neither can be redirected after the check. A directory with entries needs
 * `recursive`. Returns where it went. Errors: PathError 'not_found' | 'outside' | 'invalid' (an
 * allowed directory itself; a non-empty directory without `recursive`; no usable trash on the
 * entry's device; permission denied).
 */
export async function trashInside(
  roots: AllowedRoots,
  input: string,
  opts: TrashOptions = {},
): Promise<Trashed> {
  const entry = await roots.resolveEntry(input, { mustExist: true });
  if (roots.roots.some((r) => r.real === entry.real || r.configured === entry.real)) {
    throw new PathError(
      'invalid',
      input,
      `${quote(input)} is an allowed directory itself and cannot be deleted.`,
    );
  }
  const parent = await pinParent(roots, entry);
  const pins: Array<{ fd?: number }> = [];
  let infoAt: string | undefined;
  try {
    const name = path.basename(entry.real);
    const entryAt = `${parent.at}/${name}`;
    const st = await fs.lstat(entryAt);
    const kind = kindOfEntry(st);
    if (kind === 'directory' && !opts.recursive && (await fs.readdir(entryAt)).length > 0) {
      throw new PathError(
        'invalid',
        input,
        `${quote(input)} is a directory that is not empty; pass recursive: true to move it and everything in it to the trash.`,
      );
    }
    let trash: string;
    try {
      trash = await trashDirFor(parent.real, st.dev, opts.homeTrash ?? homeTrashDir());
    } catch (err) {
      throw new PathError(
        'invalid',
        input,
        `Cannot delete ${quote(input)}: no usable trash on its filesystem (${(err as Error).message}); it was left in place.`,
      );
    }
    // The trash cannot go into itself, and what is in it is already deleted (restore it by moving it out).
    const within = (outer: string, inner: string) => inner === outer || inner.startsWith(`${outer}/`);
    if (within(entry.real, trash)) {
      throw new PathError(
        'invalid',
        input,
        `${quote(input)} holds the trash (${trash}) and cannot be moved into it; delete what is inside it instead.`,
      );
    }
    if (within(trash, entry.real)) {
      throw new PathError('invalid', input, `${quote(input)} is already in the trash (${trash}).`);
    }
    const files = await pinTrashSub(trash, 'files');
    pins.push(files);
    const info = await pinTrashSub(trash, 'info');
    pins.push(info);
    const original = path.join(parent.real, name);
    const content = trashInfo(original, new Date());
    for (let n = 1; n <= MAX_NAME_TRIES; n++) {
      const candidate = trashName(name, n);
      const at = `${info.at}/${candidate}.trashinfo`;
      let handle: Awaited<ReturnType<typeof fs.open>>;
      try {
        handle = await fs.open(at, INFO_FLAGS, 0o600);
      } catch (err) {
        if (errnoOf(err) === 'EEXIST') continue;
        throw err;
      }
      infoAt = at;
      try {
        await handle.writeFile(content);
        await handle.sync();
      } finally {
        await handle.close();
      }
      // A stray entry in files/ without its info file (an interrupted trash): leave it, take the next name.
      if (
        await fs.lstat(`${files.at}/${candidate}`).then(
          () => true,
          () => false,
        )
      ) {
        await fs.unlink(at).catch(() => {});
        infoAt = undefined;
        continue;
      }
      try {
        await fs.rename(entryAt, `${files.at}/${candidate}`);
      } catch (err) {
        const code = errnoOf(err);
        if (code === 'EXDEV' || code === 'EBUSY') {
          throw new PathError(
            'invalid',
            input,
            `Cannot delete ${quote(input)}: it is a mount point or on another filesystem than its trash; it was left in place.`,
          );
        }
        throw err;
      }
      infoAt = undefined; // committed
      return { from: entry, kind, trash, trashedAs: path.join(trash, 'files', candidate) };
    }
    throw new PathError(
      'invalid',
      input,
      `Cannot delete ${quote(input)}: the trash has too many entries named like it.`,
    );
  } catch (err) {
    if (infoAt) await fs.unlink(infoAt).catch(() => {});
    throw err instanceof PathError ? err : fsErrorToPathError(err, input);
  } finally {
    for (const pin of pins) if (pin.fd !== undefined) unpin(pin as DirPin);
    parent.release();
  }
}
