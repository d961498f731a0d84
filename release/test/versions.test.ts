/**
 * `npm run version-packages` (changeset version, then sync-versions) on a scratch copy of the
 * workspace: a changeset for one server bumps that server alone, writes its changelog, and brings
 * its server.json and registry.json to the new version; the others are untouched.
 */
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkRegistry, readServerPackages, registryText } from '@refmcp/test-harness';
import { afterAll, describe, expect, it } from 'vitest';
import { syncServerJsonText, syncVersions } from '../src/versions.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'refmcp-version-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const WORKSPACE_DIRS = ['shared', 'test-harness', 'bench', 'hosts', 'conformance', 'release'];

function copyWorkspace() {
  for (const f of ['package.json', 'pnpm-workspace.yaml', '.changeset/config.json', 'registry.json']) {
    cpSync(join(repoRoot, f), join(scratch, f));
  }
  cpSync(join(repoRoot, 'shared/schemas'), join(scratch, 'shared/schemas'), { recursive: true });
  for (const dir of WORKSPACE_DIRS) {
    if (existsSync(join(repoRoot, dir, 'package.json')))
      cpSync(join(repoRoot, dir, 'package.json'), join(scratch, dir, 'package.json'));
  }
  for (const { dir } of readServerPackages(repoRoot)) {
    for (const f of ['package.json', 'server.json'])
      cpSync(join(repoRoot, 'servers', dir, f), join(scratch, 'servers', dir, f));
  }
  // The changelog generator (`@changesets/cli/changelog`) resolves from the workspace root.
  symlinkSync(join(repoRoot, 'node_modules'), join(scratch, 'node_modules'));
}

const version = (dir: string, file: string) =>
  JSON.parse(readFileSync(join(scratch, 'servers', dir, file), 'utf8')).version as string;

describe('version-packages', () => {
  it('bumps only the server a changeset names, with its changelog, server.json and registry.json', () => {
    copyWorkspace();
    const before = readServerPackages(scratch);
    const sqliteBefore = before.find((s) => s.dir === 'sqlite')?.packageJson.version as string;
    const fsBefore = before.find((s) => s.dir === 'filesystem')?.packageJson.version as string;
    mkdirSync(join(scratch, '.changeset'), { recursive: true });
    writeFileSync(
      join(scratch, '.changeset/quiet-fox.md'),
      '---\n"@refmcp/server-filesystem": minor\n---\n\nread_text_file reads a line range.\n',
    );
    execFileSync(join(repoRoot, 'node_modules/.bin/changeset'), ['version'], { cwd: scratch, stdio: 'pipe' });
    expect(syncVersions(scratch)).toEqual([
      expect.stringMatching(/^servers\/filesystem\/server\.json → /),
      'registry.json',
    ]);

    const [major, minor] = fsBefore.split('.').map(Number);
    const bumped = `${major}.${(minor as number) + 1}.0`;
    expect(version('filesystem', 'package.json')).toBe(bumped);
    expect(version('filesystem', 'server.json')).toBe(bumped);
    const serverJson = JSON.parse(readFileSync(join(scratch, 'servers/filesystem/server.json'), 'utf8'));
    expect(serverJson.packages[0].version).toBe(bumped);
    expect(readFileSync(join(scratch, 'servers/filesystem/CHANGELOG.md'), 'utf8')).toMatch(
      new RegExp(`## ${bumped.replaceAll('.', '\\.')}[\\s\\S]*read_text_file reads a line range`),
    );
    expect(version('sqlite', 'package.json')).toBe(sqliteBefore);
    expect(version('sqlite', 'server.json')).toBe(sqliteBefore);
    expect(existsSync(join(scratch, 'servers/sqlite/CHANGELOG.md'))).toBe(false);
    expect(readFileSync(join(scratch, 'registry.json'), 'utf8')).toBe(registryText(scratch));
    expect(checkRegistry(scratch)).toEqual([]);
  });

  it('edits server.json in place: layout kept, the versions change, a stale MCPB entry is dropped', () => {
    const text =
      '{\n  "name": "x",\n  "version": "1.0.0",\n  "packages": [\n    { "registryType": "npm", "identifier": "@a/b", "version": "1.0.0", "transport": { "type": "stdio" } },\n    { "registryType": "mcpb", "identifier": "https://github.com/a/b/releases/download/b%401.0.0/b-1.0.0.mcpb", "version": "1.0.0" }\n  ]\n}\n';
    const out = syncServerJsonText(text, '@a/b', '1.1.0');
    expect(JSON.parse(out)).toEqual({
      name: 'x',
      version: '1.1.0',
      packages: [{ registryType: 'npm', identifier: '@a/b', version: '1.1.0', transport: { type: 'stdio' } }],
    });
    // Without an MCPB entry to drop, only the version strings change.
    const npmOnly = text.replace(/,\n {4}\{ "registryType": "mcpb".*\n/, '\n');
    expect(syncServerJsonText(npmOnly, '@a/b', '1.1.0')).toBe(npmOnly.replaceAll('1.0.0', '1.1.0'));
    expect(syncServerJsonText(out, '@a/b', '1.1.0')).toBe(out);
  });

  it('refuses a server.json whose packages is not a list, naming the field', () => {
    const text = '{ "name": "x", "version": "1.0.0", "packages": { "registryType": "npm" } }';
    expect(() => syncServerJsonText(text, '@a/b', '1.1.0')).toThrow(/"packages" is not an array/);
  });
});
