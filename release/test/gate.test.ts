/** The release gate passes a good tarball and names each thing wrong with a bad one. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { gateProblems } from '../src/gate.js';
import { packRelease, readTarball, type Tarball } from '../src/tarballs.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'refmcp-gate-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A copy of `t` repacked after `change` edits its unpacked `package/` directory. */
function tampered(t: Tarball, name: string, change: (dir: string) => void): Tarball {
  const dir = join(work, name);
  execFileSync('cp', ['-r', join(t.unpacked, '..'), dir]);
  change(join(dir, 'package'));
  const file = join(work, `${name}.tgz`);
  execFileSync('tar', ['-czf', file, '-C', dir, 'package']);
  return readTarball(t.dir, file);
}

function editJson(path: string, change: (json: Record<string, unknown>) => void) {
  const json = JSON.parse(readFileSync(path, 'utf8'));
  change(json);
  writeFileSync(path, JSON.stringify(json, null, 2));
}

describe('release gate', () => {
  const [good] = packRelease(repoRoot, join(work, 'packed')).filter((t) => t.dir === 'sqlite');

  it('passes the packed sqlite server (a native runtime dependency, two bundles, server.json)', async () => {
    expect(good?.name).toBe('@refmcp/server-sqlite');
    expect(await gateProblems(good as Tarball)).toEqual([]);
    expect(good?.files.map((f) => f.path)).toContain('server.json');
  });

  it('names a ./ bin, an internal or local dependency, a stray file and a foreign mcpName', async () => {
    const bad = tampered(good as Tarball, 'bad', (dir) => {
      editJson(join(dir, 'package.json'), (p) => {
        p.bin = { 'mcp-server-sqlite': './dist/index.js' };
        p.dependencies = { '@refmcp/shared': '0.1.0', 'left-pad': 'file:../left-pad' };
        p.mcpName = 'io.github.someone-else/server-sqlite';
      });
      writeFileSync(join(dir, 'secrets.env'), 'TOKEN=x');
    });
    const problems = (await gateProblems(bad)).join('\n');
    expect(problems).toMatch(/bin mcp-server-sqlite is "\.\/dist\/index\.js": write "dist\/index\.js"/);
    expect(problems).toMatch(/dependencies has @refmcp\/shared: it is not published/);
    expect(problems).toMatch(/dependencies has left-pad@file:\.\.\/left-pad: a local range/);
    expect(problems).toMatch(/unexpected file in the tarball: secrets\.env/);
    expect(problems).toMatch(
      /mcpName io\.github\.someone-else\/server-sqlite ≠ server\.json name io\.github\.refmcp\/server-sqlite/,
    );
  });

  it('names publint findings, a missing server.json and a size over budget', async () => {
    const bad = tampered(good as Tarball, 'lint', (dir) => {
      editJson(join(dir, 'package.json'), (p) => {
        p.main = 'dist/missing.js';
      });
      rmSync(join(dir, 'server.json'));
    });
    const problems = (await gateProblems(bad, { tarballBytes: 1000, unpackedBytes: 2000 })).join('\n');
    expect(problems).toMatch(/publint error: .*dist\/missing\.js/);
    expect(problems).toMatch(/missing from the tarball: server\.json/);
    expect(problems).toMatch(/tarball is \d+ bytes, over the budget of 1000/);
    expect(problems).toMatch(/unpacked size is \d+ bytes, over the budget of 2000/);
  });
});
