/**
 * Files the server writes (screenshots, PDFs, saved snapshots) go only under --output-dir, and
 * files it uploads come only from --upload-dir, both through @refmcp/shared/paths containment:
 * relative names resolve against the directory (never the working directory); `..`, absolute paths
 * elsewhere, Windows drive/UNC paths, NUL bytes and symlinks pointing out are refused; missing
 * subdirectories are created inside, re-verified level by level; the write is atomic (case BR-03).
 */
import path from 'node:path';
import { type AllowedRoots, mkdirInside, PathError, writeFileAtomic } from '@refmcp/shared/paths';
import { ToolError } from '@refmcp/shared/server';

/**
 * Writes `data` to `filename` inside `outputDir`; returns the real path written. ToolError naming
 * `argName` when there is no output directory or the name is refused.
 */
export async function writeOutputFile(
  outputDir: AllowedRoots | undefined,
  filename: string,
  data: string | Uint8Array,
  argName = 'filename',
): Promise<string> {
  if (!outputDir)
    throw new ToolError(
      `${argName}: files cannot be saved because the operator configured no --output-dir; omit ${argName} to get the result inline`,
    );
  try {
    const resolved = await outputDir.resolve(filename);
    const parent = path.dirname(resolved.absolute);
    if (parent !== resolved.root.configured && parent !== resolved.root.real)
      await mkdirInside(outputDir, parent);
    const written = await writeFileAtomic(outputDir, filename, data);
    return written.real;
  } catch (error) {
    if (error instanceof PathError) throw new ToolError(`${argName}: ${error.message}`);
    throw error;
  }
}

/** Resolves upload paths inside --upload-dir (each must exist); ToolError naming `paths` otherwise. */
export async function resolveUploads(roots: AllowedRoots | undefined, paths: string[]): Promise<string[]> {
  if (!roots)
    throw new ToolError('paths: uploads are disabled because the operator configured no --upload-dir');
  const out: string[] = [];
  for (const p of paths) {
    try {
      const resolved = await roots.resolve(p, { mustExist: true });
      out.push(resolved.real);
    } catch (error) {
      if (error instanceof PathError) throw new ToolError(`paths: ${error.message}`);
      throw error;
    }
  }
  return out;
}
