/**
 * Playwright's errors as messages for the model: the first line, without the "Call log:" trace and
 * ANSI colours, prefixed by what we were doing. Timeouts name the budget (case ALL-07).
 */
import { TimeoutError, ToolError } from '@refmcp/shared/server';

/** Strips ANSI escapes and the call log from a Playwright error message. */
export function playwrightMessage(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences
  const plain = raw.replace(/\u001b\[[0-9;]*m/g, '');
  const head = plain.split(/\n\s*(Call log:|=+ logs =+)/)[0] ?? plain;
  return head
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l && !/^\s*at\s/.test(l)) // no stack frames (of the page's code either)
    .slice(0, 4)
    .join(' ')
    .slice(0, 1000);
}

/** True for Playwright's TimeoutError (by name: the class lives in the lazily loaded module). */
export function isPlaywrightTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === 'TimeoutError';
}

/**
 * A ToolError for a failed browser operation `what` (e.g. "click e5"); a Playwright timeout becomes
 * a TimeoutError naming the budget `ms`. ToolErrors pass through unchanged.
 */
export function browserError(what: string, error: unknown, ms?: number): ToolError {
  if (error instanceof ToolError) return error;
  if (isPlaywrightTimeout(error) && ms !== undefined) return new TimeoutError(what, ms);
  const message = playwrightMessage(error);
  if (/Target page, context or browser has been closed|Target closed|browser has disconnected/i.test(message))
    return new ToolError(
      `${what} failed: the page or browser was closed meanwhile. Call the tool again (a new page opens).`,
    );
  return new ToolError(`${what} failed: ${message}`);
}

/** Runs `promise` with a time budget; on expiry rejects with TimeoutError(what, ms). */
export async function withTimeout<T>(what: string, ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(what, ms)), ms);
  });
  try {
    return await Promise.race([promise, expired]);
  } finally {
    clearTimeout(timer);
  }
}
