/**
 * Finding a system program the harness runs (searx, nginx): its Debian location first, then the
 * PATH (Homebrew's nginx, a `pipx install searx==1.1.0`), as `scripts/provision.mjs` looks for it.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

function executable(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `debianPath` when it is executable, else the first `name` on the PATH, else undefined. */
export function findProgram(debianPath: string, name: string): string | undefined {
  if (executable(debianPath)) return debianPath;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && executable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}
