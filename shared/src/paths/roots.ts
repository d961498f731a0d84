import path from 'node:path';
import { canonicalize, isWithin } from './canonical.js';
import { errnoOf, PathError, quote } from './errors.js';
import { fs } from './fs-names.js';
import { parseInput } from './input.js';
import { type ResolvedPath, type ResolveOptions, resolvePath } from './resolve.js';
import type { AllowedRoot, RootSet } from './root-set.js';

/** The directories a server may touch; the operator's list is the ceiling, client roots can only narrow it. */
export class AllowedRoots implements RootSet {
  readonly roots: readonly AllowedRoot[];
  /** Shown when `roots` is empty, saying why nothing is allowed. */
  readonly emptyReason: string;

  private constructor(roots: AllowedRoot[], emptyReason: string) {
    this.roots = Object.freeze(roots);
    this.emptyReason = emptyReason;
  }

  /**
   * Build the operator's roots from configured directories (absolute, relative to process.cwd() — used at
   * startup only —, `~`, or file:// URIs). Duplicates (same real path) are dropped, first spelling kept.
   * Throws PathError 'invalid' (bad syntax), 'not_found' (missing) or 'not_a_directory', naming the directory.
   */
  static async fromConfig(dirs: string[]): Promise<AllowedRoots> {
    const roots: AllowedRoot[] = [];
    for (const dir of dirs) {
      const parsed = parseInput(dir);
      const configured = path.resolve(process.cwd(), parsed.path);
      // The expanded, absolute path is what was looked for: `~` and relative spellings shown resolved.
      const shown = configured === dir ? quote(dir) : `${quote(configured)} (given as ${quote(dir)})`;
      let real: string;
      try {
        real = await fs.realpath(configured);
      } catch (err) {
        if (errnoOf(err) === 'ENOENT') {
          throw new PathError('not_found', dir, `Allowed directory ${shown} does not exist.`);
        }
        if (errnoOf(err) === 'ENOTDIR') {
          throw new PathError('not_a_directory', dir, `Allowed directory ${shown} is not a directory.`);
        }
        throw err;
      }
      if (!(await fs.stat(real)).isDirectory()) {
        throw new PathError('not_a_directory', dir, `Allowed directory ${shown} is not a directory.`);
      }
      if (!roots.some((r) => r.real === real)) roots.push({ configured, real });
    }
    return new AllowedRoots(
      roots,
      'Access denied: no allowed directories are configured, so no path can be used.',
    );
  }

  /**
   * Narrow to client-supplied roots (MCP roots: file:// URIs or absolute paths). A client root inside an
   * operator root is kept as given; a client root containing an operator root narrows to that operator root;
   * others (and unparsable or relative entries) are dropped. Never widens. If nothing is left, every resolve
   * fails 'outside' saying the client's roots do not overlap the server's allowed directories.
   */
  async narrow(clientRoots: string[]): Promise<AllowedRoots> {
    const kept: AllowedRoot[] = [];
    const add = (r: AllowedRoot) => {
      if (!kept.some((k) => k.real === r.real)) kept.push(r);
    };
    for (const raw of clientRoots) {
      let configured: string;
      let real: string;
      try {
        const parsed = parseInput(raw);
        if (parsed.kind !== 'absolute') continue;
        configured = path.resolve(parsed.path);
        const c = await canonicalize(configured, { followFinal: true });
        if (c.problem) continue;
        real = c.real;
      } catch {
        continue; // a bad client root can only remove access, never add it
      }
      for (const op of this.roots) {
        if (isWithin(real, op.real)) add({ configured, real });
        else if (isWithin(op.real, real)) add(op);
      }
    }
    const reason =
      `Access denied: the client's roots (${clientRoots.map(quote).join(', ') || 'none'}) do not overlap ` +
      `the server's allowed directories (${this.describe()}), so no path can be used.`;
    return new AllowedRoots(kept, kept.length > 0 ? this.emptyReason : reason);
  }

  /**
   * Canonicalise `input` and check it lies inside a root. Follows symlinks, including a final (even dangling) one.
   * See {@link resolvePath} for the rules and errors ('invalid', 'outside', 'not_found' with mustExist).
   */
  resolve(input: string, opts: { mustExist?: boolean } = {}): Promise<ResolvedPath> {
    return resolvePath(this, input, { mustExist: opts.mustExist ?? false, followFinal: true });
  }

  /**
   * Like {@link resolve}, but a final symlink is not followed: `real` names the directory entry itself
   * (realpath of the parent + the name). For operations on entries (move, delete, lstat).
   */
  resolveEntry(input: string, opts: { mustExist?: boolean } = {}): Promise<ResolvedPath> {
    const o: ResolveOptions = { mustExist: opts.mustExist ?? false, followFinal: false };
    return resolvePath(this, input, o);
  }

  /** True when absolute real path `realPath` is inside (or equal to) a root's real path, by path segments. */
  containsReal(realPath: string): boolean {
    return this.rootOf(realPath) !== undefined;
  }

  /** The most specific root whose real path contains `realPath`, or undefined. */
  rootOf(realPath: string): AllowedRoot | undefined {
    if (!path.isAbsolute(realPath)) return undefined;
    let best: AllowedRoot | undefined;
    for (const r of this.roots) {
      if (isWithin(realPath, r.real) && (!best || r.real.length > best.real.length)) best = r;
    }
    return best;
  }

  /** The configured roots as a comma-separated list, for messages. */
  describe(): string {
    return this.roots.map((r) => r.configured).join(', ') || '(none)';
  }
}
