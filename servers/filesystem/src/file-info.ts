/** get_file_info: metadata of a file or directory, from a verified handle (never a path stat a symlink could redirect). */
import { type AllowedRoots, openInside } from '@refmcp/shared/paths';
import { octalMode, symbolicMode } from './format.js';

export interface FileInfo {
  path: string;
  realPath: string;
  size: number;
  created?: string;
  modified: string;
  accessed: string;
  isDirectory: boolean;
  isFile: boolean;
  isSymbolicLink: boolean;
  permissions: string;
  permissionsText: string;
}

/**
 * Metadata of `input` (a symlink is described by its target, which must be inside the roots).
 * `isSymbolicLink` compares the entry's own canonical path with its target's: they differ exactly when the
 * final component is a symlink. Errors: PathError (refused, missing, a FIFO/socket/device).
 */
export async function fileInfo(roots: AllowedRoots, input: string): Promise<FileInfo> {
  const entry = await roots.resolveEntry(input, { mustExist: true });
  const { handle, path, stat } = await openInside(roots, input, { allowDirectory: true });
  await handle.close().catch(() => {});
  return {
    path: input,
    realPath: path.real,
    size: stat.size,
    // birthtime is the epoch where the filesystem (or an old kernel) does not record it.
    ...(stat.birthtimeMs > 0 ? { created: stat.birthtime.toISOString() } : {}),
    modified: stat.mtime.toISOString(),
    accessed: stat.atime.toISOString(),
    isDirectory: stat.isDirectory(),
    isFile: stat.isFile(),
    isSymbolicLink: entry.real !== path.real,
    permissions: octalMode(stat.mode),
    permissionsText: symbolicMode(stat.mode),
  };
}
