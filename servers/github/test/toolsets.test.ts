/**
 * The toolsets are declared once (src/toolsets.ts): the README's toolset table is generated from
 * the declaration, and a tool naming an undeclared toolset is refused at startup.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { checkToolsets } from '@refmcp/shared';
import { renderToolsetsTable, withGeneratedSection } from '@refmcp/test-harness';
import { describe, expect, it } from 'vitest';
import { TOOLSETS } from '../src/toolsets.js';

describe('toolsets', () => {
  it('README toolset table is generated from the declaration and current (UPDATE_README=1 rewrites it)', async () => {
    const readmePath = fileURLToPath(new URL('../README.md', import.meta.url));
    const readme = await readFile(readmePath, 'utf8');
    const current = withGeneratedSection(readme, 'toolsets', renderToolsetsTable(TOOLSETS));
    if (process.env.UPDATE_README === '1') await writeFile(readmePath, current);
    expect(
      readme,
      'README toolset table is stale: run UPDATE_README=1 pnpm --filter @refmcp/server-github test',
    ).toBe(current);
  });

  it('a tool in an undeclared toolset (or in none) is refused', () => {
    expect(() => checkToolsets([{ name: 'get_me', toolset: 'context' }], TOOLSETS)).not.toThrow();
    expect(() => checkToolsets([{ name: 'x', toolset: 'repo' }], TOOLSETS)).toThrow(
      /undeclared toolset: x \(repo\); declared: context, repos/,
    );
    expect(() => checkToolsets([{ name: 'y' }], TOOLSETS)).toThrow(/y \(none\)/);
  });
});
