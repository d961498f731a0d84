/**
 * Where a server keeps credentials it obtained itself (a sign-in's token), and how it writes them:
 * the user's config directory ({@link userConfigDir}: env-paths' layout), never next to the package,
 * which under `npx` is a cache directory; written atomically with mode 0600
 * ({@link writeCredentialsFile}).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * The config directory named `name` for `env`: `$XDG_CONFIG_HOME/<name>` or `~/.config/<name>` on
 * Linux, `~/Library/Preferences/<name>` on macOS, `%APPDATA%\<name>\Config` on Windows.
 */
export function userConfigDir(
  env: NodeJS.ProcessEnv,
  name: string,
  platform: NodeJS.Platform = process.platform,
): string {
  const home = env.HOME || os.homedir();
  if (platform === 'darwin') return path.join(home, 'Library', 'Preferences', name);
  if (platform === 'win32')
    return path.join(env.APPDATA || path.join(home, 'AppData', 'Roaming'), name, 'Config');
  return path.join(env.XDG_CONFIG_HOME || path.join(home, '.config'), name);
}

/** The largest credentials file read, in bytes (a token file is a few hundred). */
export const MAX_CREDENTIALS_FILE_BYTES = 64 * 1024;

/**
 * The text of the credentials file `file` (UTF-8), read safely: opened O_NONBLOCK (a FIFO planted
 * at the path cannot hang the start), then checked with fstat to be a regular file (not a FIFO,
 * device such as /dev/zero, socket or directory) of at most `maxBytes`, and read no further than
 * that. A symlink to a regular file is followed (a user may link their token file). Errors: the
 * file system's (ENOENT when there is none, with its `code`), or an Error saying the path is not
 * a regular file or is too large.
 */
export function readCredentialsFile(file: string, maxBytes = MAX_CREDENTIALS_FILE_BYTES): string {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new Error(`${file} is not a regular file`);
    if (stat.size > maxBytes) throw new Error(`${file} is larger than ${maxBytes} bytes`);
    const buffer = Buffer.alloc(maxBytes + 1);
    let size = 0;
    for (;;) {
      const n = fs.readSync(fd, buffer, size, buffer.length - size, null);
      if (n === 0) break;
      size += n;
      if (size > maxBytes) throw new Error(`${file} is larger than ${maxBytes} bytes`);
    }
    return buffer.subarray(0, size).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Writes `value` as JSON to `file` atomically with mode 0600: a temp file beside it (created 0600,
 * exclusive), fsynced, renamed over the target (a new inode; a reader never sees half a file),
 * the parent directory created (0700) when missing. The temp file is removed on failure. Errors:
 * the file system's (EACCES, ENOSPC, …).
 */
export function writeCredentialsFile(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  try {
    const fd = fs.openSync(temp, 'wx', 0o600);
    try {
      fs.writeSync(fd, `${JSON.stringify(value, null, 2)}\n`);
      fs.fchmodSync(fd, 0o600);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}
