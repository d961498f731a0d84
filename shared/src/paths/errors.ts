import { displayPath } from './fs-names.js';

/** Why a path was refused. Stable strings: servers map them to `isError` results and tests assert on them. */
export type PathErrorCode = 'invalid' | 'outside' | 'not_found' | 'not_a_directory' | 'exists';

/**
 * A path was refused or could not be used.
 * `message` is written for the model and is shown to it as is (it never contains a stack);
 * `path` is the input as the caller gave it; `code` is one of {@link PathErrorCode}.
 */
export class PathError extends Error {
  override readonly name = 'PathError';
  readonly code: PathErrorCode;
  readonly path: string;

  constructor(code: PathErrorCode, path: string, message: string) {
    super(message);
    this.code = code;
    this.path = path;
  }
}

/** Quote a path for a message: JSON escaping makes NUL and control characters visible; long inputs are cut. */
export function quote(p: string): string {
  const cut = p.length > 200 ? `${p.slice(0, 200)}…` : p;
  return JSON.stringify(displayPath(cut));
}

/**
 * Map a Node fs error (errno code) met while using a path to a PathError with an actionable message.
 * Errors that are not about the path (EIO, ENOSPC, …) are returned unchanged.
 */
export function fsErrorToPathError(err: unknown, input: string): unknown {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const q = quote(input);
  switch (code) {
    case 'ENOENT':
      return new PathError('not_found', input, `${q} does not exist.`);
    case 'ENOTDIR':
      return new PathError('not_a_directory', input, `A component of ${q} is not a directory.`);
    case 'EEXIST':
      return new PathError('exists', input, `${q} already exists.`);
    case 'EACCES':
    case 'EPERM':
      return new PathError('invalid', input, `Permission denied for ${q}.`);
    case 'EROFS':
      return new PathError('invalid', input, `${q} is on a read-only filesystem.`);
    case 'ENAMETOOLONG':
      return new PathError(
        'invalid',
        input,
        `${q} is too long: names are limited to 255 bytes and whole paths to 4096 bytes (UTF-8), after symlinks are followed.`,
      );
    case 'ELOOP':
      return new PathError('invalid', input, `Too many levels of symbolic links in ${q}.`);
    default:
      return err;
  }
}

/** PathError 'invalid' for a path that kept changing (a symlink swapped, a directory replaced) while it was used. */
export function changedWhileUsed(input: string): PathError {
  return new PathError('invalid', input, `${quote(input)} changed while it was being used; retry.`);
}

/** The errno code of a Node fs error, or undefined. */
export function errnoOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | null)?.code;
}
