/** The built CLI (dist/cli.js, as the release workflow runs it): usage on --help, exit 0. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });

describe('refmcp-release --help', () => {
  it.each(['--help', '-h', 'mcpb-entries --help'])('%s prints the usage and exits 0', (args) => {
    const r = run(args.split(' '));
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^usage: refmcp-release sync-versions\n/);
    expect(r.stdout).toContain('refmcp-release mcpb-entries --server DIR --bundles DIR');
    expect(r.status).toBe(0);
  });

  it('an unknown option still fails, with the usage hint from parseArgs', () => {
    const r = run(['--nope']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/Unknown option '--nope'/);
  });
});
