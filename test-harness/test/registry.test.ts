import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { checkRegistry, readServerPackages, registryText } from '../src/registry.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

describe('registry.json', () => {
  it('is current, valid against the official schema, and consistent with each package.json', () => {
    expect(checkRegistry(repoRoot)).toEqual([]);
    const registry = JSON.parse(readFileSync(join(repoRoot, 'registry.json'), 'utf8'));
    expect(registry.metadata.count).toBe(readServerPackages(repoRoot).length);
    expect(registry.servers.map((s: { server: { name: string } }) => s.server.name)).toContain(
      'io.github.refmcp/server-filesystem',
    );
  });

  describe('catches what drifts', () => {
    // A scratch copy of the registry inputs, so the real repo is never touched.
    const scratch = mkdtempSync(join(tmpdir(), 'refmcp-registry-'));
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));
    cpSync(join(repoRoot, 'shared/schemas'), join(scratch, 'shared/schemas'), { recursive: true });
    for (const { dir } of readServerPackages(repoRoot)) {
      for (const file of ['package.json', 'server.json']) {
        cpSync(join(repoRoot, 'servers', dir, file), join(scratch, 'servers', dir, file));
      }
    }
    writeFileSync(join(scratch, 'registry.json'), registryText(scratch));
    const edit = (file: string, change: (json: Record<string, unknown>) => void) => {
      const path = join(scratch, file);
      const before = readFileSync(path, 'utf8');
      const json = JSON.parse(before);
      change(json);
      writeFileSync(path, JSON.stringify(json));
      return () => writeFileSync(path, before);
    };

    it('a version bump in package.json alone', () => {
      const undo = edit('servers/filesystem/package.json', (p) => {
        p.version = '9.9.9';
      });
      expect(checkRegistry(scratch).join('\n')).toMatch(
        /server\.json version 0\.1\.0 ≠ package\.json 9\.9\.9/,
      );
      undo();
    });

    it('a server.json the official schema refuses, and a stale registry.json', () => {
      const undo = edit('servers/filesystem/server.json', (s) => {
        s.description = 'x'.repeat(200);
      });
      const problems = checkRegistry(scratch).join('\n');
      expect(problems).toMatch(/server\.json \/description: must NOT have more than 100 characters/);
      expect(problems).toMatch(/registry\.json: out of date/);
      undo();
      expect(checkRegistry(scratch)).toEqual([]);
    });

    it('an internal package left as a runtime dependency', () => {
      const undo = edit('servers/filesystem/package.json', (p) => {
        p.dependencies = { '@refmcp/shared': 'workspace:*' };
      });
      expect(checkRegistry(scratch).join('\n')).toMatch(
        /runtime dependency @refmcp\/shared cannot be installed/,
      );
      undo();
    });
  });
});
