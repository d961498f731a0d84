/**
 * Completion of `file://{+path}`'s path: the allowed directories themselves, then the entries of
 * the directory typed so far — resolved, contained and listed exactly as list_directory does
 * (roots narrowed by the client's once applied, symlinks leading outside left out), so a path
 * outside the allowed directories never completes. Directories end with "/" so the next keystroke lists them.
 * Bounded and cut off by the shared mechanism (completion.ts).
 */
import { type Completer, completeFrom } from '@refmcp/shared/server';
import type { Config } from './config.js';
import { readListing } from './listing.js';
import { resolveDirectory } from './tools/list.js';

/** A name holding raw bytes (not valid UTF-8) is shown as U+DC80–U+DCFF: left out of completions. */
const RAW_BYTE = /[\uDC80-\uDCFF]/;

export function pathCompleter(config: Config): Completer {
  return async ({ value }) => {
    // As tool calls do: the client's roots, when a refresh is in flight, apply first.
    await config.workspace.settled();
    const roots = config.workspace.roots.roots.map((r) => `${r.configured}/`);
    const slash = value.lastIndexOf('/');
    const dir = slash <= 0 ? '/' : value.slice(0, slash);
    const inRoot = config.workspace.roots.roots.some(
      (r) => value === r.configured || value.startsWith(`${r.configured}/`),
    );
    if (!inRoot) return completeFrom(roots, value);
    if (roots.includes(`${value}/`)) return [`${value}/`];
    let real: string;
    try {
      real = (await resolveDirectory(config, dir)).real;
    } catch {
      return []; // not a directory inside the allowed ones
    }
    const listing = await readListing(real, {
      withSizes: false,
      contains: (r) => config.workspace.roots.containsReal(r),
    });
    const leaf = value.slice(slash + 1);
    const names = listing.entries
      .filter((e) => !RAW_BYTE.test(e.name) && e.name.startsWith(leaf))
      .map((e) => {
        const isDir = e.type === 'directory' || (e.type === 'symlink' && e.target === 'directory');
        return `${dir === '/' ? '' : dir}/${e.name}${isDir ? '/' : ''}`;
      })
      .sort();
    return completeFrom(names, value);
  };
}
