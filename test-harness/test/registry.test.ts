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

  it('every server says it also runs over Streamable HTTP, with the flag that selects it', () => {
    for (const { dir, serverJson } of readServerPackages(repoRoot)) {
      const packages = serverJson.packages as unknown as {
        transport: { type: string; url?: string };
        packageArguments?: { name?: string; value?: string }[];
      }[];
      expect(
        packages.map((p) => p.transport.type),
        dir,
      ).toEqual(['stdio', 'streamable-http']);
      const http = packages[1];
      expect(http?.transport.url, dir).toBe('http://127.0.0.1:{port}/mcp');
      expect(http?.packageArguments?.find((a) => a.name === '--transport')?.value, dir).toBe('http');
    }
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

    it("the registry's publish-time rules: a version range, latest, a foreign npm registry, $schema, _meta", () => {
      const undo = edit('servers/filesystem/server.json', (s) => {
        const [stdio, http] = s.packages as Record<string, unknown>[];
        (stdio as Record<string, unknown>).version = '^0.1.0';
        (http as Record<string, unknown>).version = 'latest';
        (http as Record<string, unknown>).registryBaseUrl = 'https://npm.example.com';
        delete s.$schema;
        s._meta = { 'com.example/extra': {} };
      });
      const problems = checkRegistry(scratch).join('\n');
      expect(problems).toMatch(
        /packages\[0\] \(npm @refmcp\/server-filesystem\)\.version "\^0\.1\.0" is not an exact semver version \(no ranges\) \(registry publish rule\)/,
      );
      expect(problems).toMatch(/packages\[1\] \(npm @refmcp\/server-filesystem\)\.version is "latest"/);
      expect(problems).toMatch(
        /packages\[1\] .*registryBaseUrl: only https:\/\/registry\.npmjs\.org is accepted/,
      );
      expect(problems).toMatch(/\$schema: missing/);
      expect(problems).toMatch(/_meta\.com\.example\/extra: dropped by the registry/);
      undo();
    });

    it('an MCPB entry without its sha256 or outside GitHub/GitLab releases', () => {
      const undo = edit('servers/filesystem/server.json', (s) => {
        (s.packages as unknown[]).push({
          registryType: 'mcpb',
          identifier: 'https://example.com/filesystem.mcpb',
          transport: { type: 'stdio' },
        });
      });
      const problems = checkRegistry(scratch).join('\n');
      expect(problems).toMatch(
        /packages\[2\] \(mcpb https:\/\/example\.com\/filesystem\.mcpb\)\.identifier: an MCPB must be a GitHub or GitLab release asset URL/,
      );
      expect(problems).toMatch(/packages\[2\] .*fileSha256: required for MCPB/);
      undo();
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
