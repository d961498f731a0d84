/** The filesystem server's own test fixtures: its launch, as the current user or unprivileged. */
import { type Era, startBuiltServer } from '@refmcp/test-harness';

/** Spawns the built filesystem server with `args` (allowed dirs, options) over stdio. */
export const startServer = (args: string[], era: Era = 'legacy') =>
  startBuiltServer('filesystem', args, { era });

/** Numeric id of the `nobody` user and group (Debian's), which unprivileged servers run as when tests run as root. */
export const NOBODY = 65534;

/**
 * The built server as an unprivileged user, for checks of file permissions (root may write and search
 * everything): as root it runs as nobody through util-linux `setpriv`, from a copy of `dist/` nobody
 * can reach (the checkout may sit in a 0700 directory); otherwise as the current user.
 */
export const startUnprivileged = (args: string[]) => startBuiltServer('filesystem', args, { asUser: NOBODY });
