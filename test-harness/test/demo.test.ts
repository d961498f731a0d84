/** The Quick start's first command runs this demo: it must complete, refuse only what it means to, and keep stdout clean. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

describe('demo', () => {
  it('runs every scene from the host config and ends with a clean summary', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['test-harness/dist/demo.js'], {
      cwd: repoRoot,
      timeout: 120_000,
    });
    expect(stdout).toMatch(/protocol 2026-07-28 \(modern era\)/);
    expect(stdout).toMatch(/Access denied: "\.\.\/\.\.\/etc\/passwd"/);
    expect(stdout).toContain(
      'upstream/private is outside the projects this server may access (--projects grp/proj)',
    );
    expect(stdout).toContain(
      'SHEET1 is outside the folders this server may access (--folders FOLDER1,0ASHARED)',
    );
    expect(stdout).toContain(
      'C111 is not a channel this server may post, reply or react in (--post-to C0TEST)',
    );
    expect(stdout).toMatch(
      /Summary: 9 server\(s\), \d+ tool calls in \d+ ms; (\d+) refused as intended, 0 unexpected errors; stdout carried only JSON-RPC\./,
    );
  }, 150_000);
});
