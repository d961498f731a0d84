/**
 * What a test's client does in the server's place of a user: answer form elicitations from a list
 * (confirmation tests), and cancel a call at its Nth progress notification (progress tests).
 */
import type { Connection } from './connect.js';

/** A user's answer to an `elicitation/create` (MCP 2025-11-25, Elicitation: accept, decline, cancel). */
export type ElicitAnswer = 'accept' | 'decline' | 'cancel';

/**
 * Answers each `elicitation/create` `conn` receives with the next of `answers` (`cancel` once they
 * run out; `accept` carries empty content), recording each question's message in `asked`.
 * The connection must have declared `capabilities.elicitation.form`.
 */
export function answerElicitations(conn: Connection, answers: ElicitAnswer[], asked: string[]): void {
  conn.client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(request.params.message);
    const action = answers.shift() ?? 'cancel';
    return action === 'accept' ? { action, content: {} } : { action };
  });
}

/** One `notifications/progress` a call received: its counter and message. */
export interface ProgressSeen {
  progress: number;
  message?: string;
}

/**
 * Calls tool `name` with a progress token and cancels the call when its `beats`-th progress
 * notification arrives. Resolves with `aborted` (the client gave up on it) or `answered` (it
 * answered first), and every progress notification seen.
 */
export async function cancelAtBeat(
  conn: Connection,
  name: string,
  args: Record<string, unknown>,
  beats = 2,
): Promise<{ outcome: 'answered' | 'aborted'; seen: ProgressSeen[] }> {
  const controller = new AbortController();
  const seen: ProgressSeen[] = [];
  const outcome = await conn.client
    .callTool(
      { name, arguments: args },
      {
        signal: controller.signal,
        resetTimeoutOnProgress: true,
        onprogress: (p) => {
          seen.push(p);
          if (seen.length === beats) controller.abort('test cancels');
        },
      },
    )
    .then(
      () => 'answered' as const,
      () => 'aborted' as const,
    );
  return { outcome, seen };
}

/** The client capability of URL elicitation only (MCP 2025-11-25, Elicitation, URL mode). */
export const URL_ELICITATION = { elicitation: { url: {} } } as const;

/**
 * What `mcp-harness call/session --elicit-url` does with a URL elicitation: writes the server's
 * message and the URL with `write` (stderr: stdout carries results) for the user to open, and
 * answers `accept` at once, as a host does once the user agreed to open it; the call then waits
 * for the server (e.g. until a sign-in in the browser ends). A form elicitation (not declared)
 * is declined.
 */
export function showUrlElicitations(conn: Pick<Connection, 'client'>, write: (text: string) => void): void {
  conn.client.setRequestHandler('elicitation/create', async (request) => {
    const params = request.params as { mode?: string; url?: string; message: string };
    if (params.mode !== 'url' || !params.url) return { action: 'decline' };
    write(`mcp-harness: the server asks you to open a URL: ${params.message}\n\n  ${params.url}\n\n`);
    return { action: 'accept' };
  });
}
