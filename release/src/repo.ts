import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The workspace root above `from` (the directory holding pnpm-workspace.yaml). Throws if there is none. */
export function findRepoRoot(from: string = process.cwd()): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (dirname(dir) === dir)
      throw new Error(`no pnpm-workspace.yaml above ${from}: run this inside the refmcp checkout`);
  }
}
