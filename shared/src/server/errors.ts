/**
 * Errors a tool handler may throw. The bootstrap turns every thrown error into a tool result with
 * `isError: true` (MCP spec 2025-11-25, "Error Handling": tool execution errors are results, so the
 * model can read and correct them) and never into a stack trace.
 */

/** An error whose message is written for the model: what went wrong and what to do instead. */
export class ToolError extends Error {
  override name = 'ToolError';
}

/** A bad startup configuration: the CLI prints the message and a pointer to --help on stderr and exits 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A call that ran past its time budget. `ms` is the budget in milliseconds. */
export class TimeoutError extends ToolError {
  override name = 'TimeoutError';
  constructor(
    readonly what: string,
    readonly ms: number,
  ) {
    super(`${what} timed out after ${ms} ms`);
  }
}

// Node system error codes → what they mean to someone choosing the next call.
const SYSTEM_ERRORS: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied by the operating system',
  EPERM: 'operation not permitted by the operating system',
  EISDIR: 'is a directory (expected a file)',
  ENOTDIR: 'a component of the path is not a directory',
  EEXIST: 'already exists',
  ENOTEMPTY: 'directory not empty',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'name too long',
  EMFILE: 'too many open files; retry shortly',
  ENOSPC: 'no space left on device',
  EROFS: 'read-only file system',
  EXDEV: 'cannot move across file systems',
  EBUSY: 'resource busy',
  ETIMEDOUT: 'timed out',
  ECONNREFUSED: 'connection refused',
  EADDRINUSE: 'address already in use',
  EADDRNOTAVAIL: 'address not available on this machine',
};

/**
 * The message shown to the model for any thrown value: a ToolError's own message; a Node system
 * error as "<meaning> (<code>): <path>"; anything else as "Internal error: <message>". Never a stack.
 */
export function describeError(error: unknown): string {
  if (error instanceof ToolError) return error.message;
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const meaning = code ? SYSTEM_ERRORS[code] : undefined;
    if (code && meaning) {
      const path = (error as NodeJS.ErrnoException).path;
      return path ? `${meaning} (${code}): ${path}` : `${meaning} (${code})`;
    }
    if (error.name !== 'Error' && error.name !== 'TypeError' && error.name !== 'RangeError') {
      return error.message; // domain errors (PathError, …) carry model-facing messages
    }
    return `Internal error: ${error.message}`;
  }
  return `Internal error: ${String(error)}`;
}
