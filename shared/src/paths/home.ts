import { homedir } from 'node:os';
import path from 'node:path';

/**
 * Expand a leading `~` (alone or followed by `/`) to the current user's home directory.
 * `~user` forms and `~` elsewhere in the path are returned unchanged (the caller decides whether to refuse them).
 * Example: `expandHome('~/notes')` → `/home/me/notes`. Never throws.
 */
export function expandHome(p: string): string {
  if (p === '~') return homedir();
  if (p.startsWith('~/')) return path.join(homedir(), p.slice(2));
  return p;
}
