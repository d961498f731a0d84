/**
 * MCP client roots (2025-11-25 era): after initialization, if the client declared the `roots`
 * capability, ask it for its roots (`roots/list`) and narrow the allowed directories to them; again
 * on `notifications/roots/list_changed`. Client roots only ever NARROW the operator's directories
 * (AllowedRoots.narrow) — unlike the official server, which lets them replace the directories. A
 * failed request is logged on stderr and the directories in force stay as they are.
 *
 * 2026-07-28 era: `roots/list` is no longer a server→client request (only an `input_required`
 * embedded request inside a tool call, SEP-2577 deprecates roots), and there is no `initialize`;
 * the operator's directories apply as configured.
 */
import type { McpServer } from '@modelcontextprotocol/server';
import { type ConnectionContext, describeError } from '@refmcp/shared/server';
import type { Config } from './config.js';

/** Milliseconds the client gets to answer roots/list. */
export const ROOTS_TIMEOUT_MS = 10_000;

export function registerRoots(server: McpServer, config: Config, context: ConnectionContext): void {
  const lowLevel = server.server;
  const log = context.log;
  // Requests are chained so a slow answer can never overwrite a newer one.
  let queue: Promise<void> = Promise.resolve();

  const refresh = (why: string) => {
    queue = queue.then(async () => {
      if (context.shutdown.aborted) return;
      try {
        const { roots } = await lowLevel.listRoots(undefined, {
          timeout: ROOTS_TIMEOUT_MS,
          signal: context.shutdown,
        });
        const uris = roots.map((r) => r.uri);
        await config.workspace.applyClientRoots(uris);
        const now = config.workspace.roots;
        log.info(
          `client roots (${why}): ${uris.join(', ') || 'none'}; allowed directories now: ` +
            (now.roots.length > 0 ? now.describe() : `none (${now.emptyReason})`),
        );
      } catch (error) {
        log.warn(
          `could not apply the client's roots (${why}): ${describeError(error)}; ` +
            `keeping the allowed directories: ${config.workspace.roots.describe()}`,
        );
      }
    });
    config.workspace.track(queue);
  };

  const previous = lowLevel.oninitialized;
  lowLevel.oninitialized = () => {
    previous?.();
    if (lowLevel.getClientCapabilities()?.roots) refresh('initialized');
  };
  lowLevel.setNotificationHandler('notifications/roots/list_changed', () => {
    refresh('roots/list_changed');
  });
}
