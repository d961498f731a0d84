/** Demo scene: the filesystem server on this checkout — find, read a range, preview an edit, refuse an escape. */
import { cp } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { DemoScene } from './scene.js';
import { bold } from './session.js';

export const filesystemScene: DemoScene = {
  server: 'filesystem',
  async run(session, { repoRoot, scratch }) {
    console.log(
      `\n${bold('Task: where is the shutdown budget of the server bootstrap, and how would we change it?')}`,
    );
    const found = await session.call(
      'search_file_contents',
      { path: 'shared', pattern: 'const SHUTDOWN_BUDGET_MS', include: ['**/*.ts'] },
      'Content search over the checkout (literal, .gitignore respected).',
    );
    const match = (found.structuredContent as { matches?: { path: string; line: number }[] } | undefined)
      ?.matches?.[0];
    if (!match) throw new Error('the demo expected to find SHUTDOWN_BUDGET_MS');
    await session.call(
      'read_text_file',
      { path: match.path, offset: Math.max(1, match.line - 2), limit: 6 },
      `Read only the lines around the match (line ${match.line}).`,
    );
    const copy = join(scratch, 'run.ts');
    await cp(resolve(repoRoot, match.path), copy);
    await session.call(
      'edit_file',
      {
        path: copy,
        edits: [{ oldText: 'SHUTDOWN_BUDGET_MS = 1500', newText: 'SHUTDOWN_BUDGET_MS = 1000' }],
        dryRun: true,
      },
      'Preview the edit on a scratch copy: a diff, nothing written.',
    );
    await session.call(
      'read_text_file',
      { path: '../../etc/passwd' },
      'An escape attempt: must be refused.',
      true,
    );
  },
};
