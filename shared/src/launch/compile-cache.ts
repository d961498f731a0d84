/**
 * V8 code cache files for one bundle (used by launcher.ts).
 *
 * A cache file holds V8's compiled bytecode, which V8 runs as is: a file another local user could
 * write would be code injection. So the directory must be this user's own and writable by nobody
 * else (created 0700, checked with lstat: a directory, not a symlink, owned by this uid, no group or
 * other write bit); otherwise no cache is used. V8 itself rejects data from another V8 version or
 * flag set, or with a bad checksum; it only checks the source's *length*, so the file name carries a
 * SHA-256 of the source, Node's version and the architecture.
 */
import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export interface CompileCache {
  /** The bundle's source text (read once, here). */
  source: string;
  /** Code cache saved for exactly this source by an earlier run, if any. */
  data?: Buffer;
  /** Saves `data` as this source's cache and deletes this bundle's caches of other versions. Never throws. */
  save(data: Buffer): void;
}

/** The code cache for the bundle at `file` (absolute path). Never throws for cache problems. */
export function compileCache(file: string, env: NodeJS.ProcessEnv = process.env): CompileCache {
  const source = readFileSync(file, 'utf8');
  const dir = env.NODE_DISABLE_COMPILE_CACHE ? undefined : cacheDir(env);
  if (!dir) return { source, save: () => {} };
  const prefix = `${sha256(file).slice(0, 16)}-`;
  const name = `${prefix}${sha256(`${process.version}\0${process.arch}\0${source}`).slice(0, 32)}.bin`;
  const path = join(dir, name);
  let data: Buffer | undefined;
  try {
    data = readFileSync(path);
  } catch {
    // none yet
  }
  const save = (made: Buffer) => {
    try {
      const temp = `${path}.${process.pid}.tmp`;
      writeFileSync(temp, made, { mode: 0o600 });
      renameSync(temp, path);
      for (const other of readdirSync(dir))
        if (other.startsWith(prefix) && other !== name && other.endsWith('.bin'))
          unlinkSync(join(dir, other));
    } catch {
      // A full disk or a race with another start: the next start tries again.
    }
  };
  return { source, data, save };
}

/** `$XDG_CACHE_HOME/refmcp`, `~/.cache/refmcp`, then `<tmpdir>/refmcp-<uid>`: the first one that is safe. */
function cacheDir(env: NodeJS.ProcessEnv): string | undefined {
  const uid = process.getuid?.();
  const candidates: string[] = [];
  if (env.XDG_CACHE_HOME?.startsWith('/')) candidates.push(join(env.XDG_CACHE_HOME, 'refmcp'));
  try {
    candidates.push(join(homedir(), '.cache', 'refmcp'));
  } catch {
    // no home directory
  }
  candidates.push(join(tmpdir(), `refmcp-${uid ?? 'user'}`));
  for (const dir of candidates) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const stat = lstatSync(dir);
      if (stat.isDirectory() && (uid === undefined || stat.uid === uid) && (stat.mode & 0o022) === 0)
        return dir;
    } catch {
      // not creatable here: try the next
    }
  }
  return undefined;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
