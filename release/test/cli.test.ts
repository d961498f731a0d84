// The built release CLI as a maintainer runs it: --help answers with the usage; a mistake is exit 2.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const run = (args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', input: '' });

describe('refmcp-release CLI', () => {
  it('--help and -h print the usage on stdout, exit 0', () => {
    for (const flag of ['--help', '-h']) {
      const r = run([flag]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^usage: refmcp-release sync-versions\n/);
      expect(r.stderr).toBe('');
    }
  });

  it('<command> --help prints the usage too', () => {
    const r = run(['mcpb-entries', '--help']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('refmcp-release mcpb-entries --server DIR --bundles DIR');
  });

  it('an unknown option or command is exit 2 with the usage on stderr', () => {
    const option = run(['pack', '--bogus']);
    expect(option.status).toBe(2);
    expect(option.stderr).toMatch(/^refmcp-release: Unknown option '--bogus'/);
    expect(option.stderr).toContain('usage: refmcp-release');
    const command = run(['frobnicate']);
    expect(command.status).toBe(2);
    expect(command.stderr).toContain('usage: refmcp-release');
  });
});
