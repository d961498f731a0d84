/**
 * server.json's MCPB entries come from the built bundles (src/mcpb/entries.ts, write-entries.ts):
 * written with each bundle's URL, version and sha256; refused when stale (another version) or
 * mismatched (other bytes, a bundle missing or unknown); dropped by a version bump.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readServerPackages } from '@refmcp/test-harness';
import { afterAll, describe, expect, it } from 'vitest';
import {
  downloadProblems,
  mcpbEntries,
  mcpbEntryProblems,
  readBuiltBundles,
  releaseAssetUrl,
  sha256,
  withMcpbEntries,
} from '../src/mcpb/entries.js';
import { bundleFileName, bundleMatrix, bundlePlatform, NATIVE_PLATFORMS } from '../src/mcpb/platforms.js';
import { writeMcpbEntries } from '../src/mcpb/write-entries.js';
import { syncServerJsonText } from '../src/versions.js';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'refmcp-mcpb-entries-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const SQLITE = '@refmcp/server-sqlite';
const PLATFORMS = Object.keys(NATIVE_PLATFORMS);

/** Fake bundle files (their bytes stand for a bundle's; only the hash matters here). */
function writeBundles(dir: string, names: string[]): string {
  const out = mkdtempSync(join(scratch, 'bundles-'));
  names.forEach((n, i) => {
    mkdirSync(join(out, `artifact-${i}`));
    writeFileSync(join(out, `artifact-${i}`, n), `bundle ${dir} ${n}`);
  });
  return out;
}

/** A scratch workspace: what checkRegistry reads (server.json, package.json, the schema). */
function copyWorkspace(): string {
  const root = mkdtempSync(join(scratch, 'repo-'));
  cpSync(join(repoRoot, 'shared/schemas'), join(root, 'shared/schemas'), { recursive: true });
  cpSync(join(repoRoot, 'registry.json'), join(root, 'registry.json'));
  for (const { dir } of readServerPackages(repoRoot))
    for (const f of ['package.json', 'server.json'])
      cpSync(join(repoRoot, 'servers', dir, f), join(root, 'servers', dir, f));
  symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
  return root;
}

describe('MCPB entries in server.json', () => {
  it('the committed server.json files have no stale or hand-made MCPB entry', () => {
    for (const { dir, packageJson, serverJson } of readServerPackages(repoRoot))
      expect(mcpbEntryProblems(serverJson, packageJson.name, packageJson.version, { dir }), dir).toEqual([]);
  });

  it('are written from the built bundles: one per sqlite platform, URL, version and sha256, valid for the registry', async () => {
    const root = copyWorkspace();
    const { version } = JSON.parse(readFileSync(join(root, 'servers/sqlite/package.json'), 'utf8'));
    const names = PLATFORMS.map((p) => bundleFileName('sqlite', version, p as never));
    const bundles = writeBundles('sqlite', names);
    expect(await writeMcpbEntries(root, 'sqlite', bundles)).toEqual([]);

    const written = JSON.parse(readFileSync(join(root, 'servers/sqlite/server.json'), 'utf8'));
    const mcpb = written.packages.filter((p: { registryType: string }) => p.registryType === 'mcpb');
    expect(mcpb).toEqual(
      names.map((n, i) => ({
        registryType: 'mcpb',
        identifier: `https://github.com/refmcp/refmcp/releases/download/%40refmcp%2Fserver-sqlite%40${version}/${n}`,
        version,
        fileSha256: sha256(readFileSync(join(bundles, `artifact-${i}`, n))),
        transport: { type: 'stdio' },
      })),
    );
    // The npm entries are kept, and registry.json follows.
    expect(written.packages.filter((p: { registryType: string }) => p.registryType === 'npm')).toHaveLength(
      2,
    );
    expect(readFileSync(join(root, 'registry.json'), 'utf8')).toContain(mcpb[0].fileSha256);
    // Written again from the same bundles: the same file (entries replaced, not appended).
    const once = readFileSync(join(root, 'servers/sqlite/server.json'), 'utf8');
    expect(await writeMcpbEntries(root, 'sqlite', bundles)).toEqual([]);
    expect(readFileSync(join(root, 'servers/sqlite/server.json'), 'utf8')).toBe(once);
  });

  it('refuses to write when a platform bundle is missing or a bundle of another version is there', () => {
    const some = writeBundles('sqlite', [bundleFileName('sqlite', '1.0.0', 'linux-x64')]);
    expect(() => readBuiltBundles(some, 'sqlite', '1.0.0')).toThrow(/missing.*darwin-arm64/);
    const old = writeBundles('filesystem', [
      bundleFileName('filesystem', '1.0.0', 'any'),
      bundleFileName('filesystem', '0.9.0', 'any'),
    ]);
    expect(() => readBuiltBundles(old, 'filesystem', '1.0.0')).toThrow(/not filesystem@1\.0\.0's: .*0\.9\.0/);
  });

  it('refuses two bundles of one name (naming both paths), a server outside servers/, and packages not an array', async () => {
    const name = bundleFileName('filesystem', '1.0.0', 'any');
    const twice = writeBundles('filesystem', [name, name]);
    expect(() => readBuiltBundles(twice, 'filesystem', '1.0.0')).toThrow(
      new RegExp(`two bundles named ${name.replaceAll('.', '\\.')} .*artifact-0.* and .*artifact-1`),
    );

    const root = copyWorkspace();
    const fs = JSON.parse(readFileSync(join(root, 'servers/filesystem/package.json'), 'utf8'));
    const bundles = writeBundles('filesystem', [bundleFileName('filesystem', fs.version, 'any')]);
    await expect(writeMcpbEntries(root, '../../../tmp/x', bundles)).rejects.toThrow(
      /--server \.\.\/\.\.\/\.\.\/tmp\/x: not a server of this repo \(one of: .*filesystem/,
    );

    const serverJson = join(root, 'servers/filesystem/server.json');
    writeFileSync(
      serverJson,
      JSON.stringify({ ...JSON.parse(readFileSync(serverJson, 'utf8')), packages: {} }),
    );
    await expect(writeMcpbEntries(root, 'filesystem', bundles)).rejects.toThrow(
      /server\.json "packages" must be an array of package entries.*found object/,
    );
    expect(mcpbEntryProblems({ packages: {} }, fs.name, fs.version)).toEqual([
      'packages: must be an array of package entries (server.schema.json)',
    ]);
  });

  it('a stale entry (version bump left it) or a mismatched one (other bytes, no such bundle) fails the check', () => {
    const bundles = [{ file: bundleFileName('filesystem', '1.1.0', 'any'), sha256: 'a'.repeat(64) }];
    const name = '@refmcp/server-filesystem';
    const fresh = { packages: mcpbEntries('refmcp/refmcp', name, '1.1.0', bundles) };
    expect(mcpbEntryProblems(fresh, name, '1.1.0', { bundles })).toEqual([]);

    // The package moved to 1.2.0, the entry did not.
    expect(mcpbEntryProblems(fresh, name, '1.2.0').join('\n')).toMatch(
      /version 1\.1\.0 ≠ the package's 1\.2\.0: stale/,
    );
    // Version rewritten by hand, URL and sha left from 1.1.0.
    const handBumped = { packages: [{ ...fresh.packages[0], version: '1.2.0' }] };
    expect(mcpbEntryProblems(handBumped, name, '1.2.0').join('\n')).toMatch(
      /not the URL of a .*1\.2\.0 bundle/,
    );
    // The bundle was rebuilt: other bytes.
    const rebuilt = [{ ...bundles[0], sha256: 'b'.repeat(64) }] as typeof bundles;
    expect(mcpbEntryProblems(fresh, name, '1.1.0', { bundles: rebuilt }).join('\n')).toMatch(
      /fileSha256 a{64} ≠ the built bundle's b{64}/,
    );
    // A bundle built without an entry.
    expect(mcpbEntryProblems({ packages: [] }, name, '1.1.0', { bundles }).join('\n')).toMatch(
      /built but has no MCPB entry/,
    );
    // Twice the same.
    expect(
      mcpbEntryProblems({ packages: [...fresh.packages, ...fresh.packages] }, name, '1.1.0').join('\n'),
    ).toMatch(/listed twice/);
  });

  it("a version bump drops the old MCPB entries (their sha256 is the old bundle's)", () => {
    const text = readFileSync(join(repoRoot, 'servers/filesystem/server.json'), 'utf8');
    const { name, version } = JSON.parse(
      readFileSync(join(repoRoot, 'servers/filesystem/package.json'), 'utf8'),
    );
    const bundles = [{ file: bundleFileName('filesystem', version, 'any'), sha256: 'c'.repeat(64) }];
    const withEntry = withMcpbEntries(text, mcpbEntries('refmcp/refmcp', name, version, bundles));
    expect(withMcpbEntries(withEntry, [])).toBe(text);
    const bumped = JSON.parse(syncServerJsonText(withEntry, name, '99.0.0'));
    expect(bumped.packages.map((p: { registryType: string }) => p.registryType)).not.toContain('mcpb');
    expect(mcpbEntryProblems(bumped, name, '99.0.0')).toEqual([]);
  });

  it('--verify-urls compares what each URL serves with fileSha256', async () => {
    const entries = mcpbEntries('refmcp/refmcp', SQLITE, '1.0.0', [
      { file: bundleFileName('sqlite', '1.0.0', 'linux-x64'), sha256: sha256(Buffer.from('the bundle')) },
      { file: bundleFileName('sqlite', '1.0.0', 'win32-x64'), sha256: sha256(Buffer.from('the bundle')) },
    ]);
    const served: Record<string, Response> = {
      [entries[0]?.identifier ?? '']: new Response('the bundle'),
      [entries[1]?.identifier ?? '']: new Response('other bytes'),
    };
    const fake = (async (url: string) => served[url] ?? new Response('', { status: 404 })) as typeof fetch;
    const problems = await downloadProblems(entries, fake);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/win32-x64\.mcpb: served sha256 .* ≠ fileSha256/);
    expect(
      await downloadProblems(
        [{ ...entries[0], identifier: releaseAssetUrl('x/y', SQLITE, '1.0.0', 'gone.mcpb') }],
        fake,
      ),
    ).toEqual([expect.stringMatching(/gone\.mcpb: HTTP 404/)]);
  });
});

describe('bundle platforms', () => {
  it('sqlite is built per platform, on that platform only; the others once, for any', () => {
    expect(bundlePlatform('sqlite', undefined, 'linux-x64')).toBe('linux-x64');
    expect(bundlePlatform('sqlite', 'darwin-arm64', 'darwin-arm64')).toBe('darwin-arm64');
    expect(() => bundlePlatform('sqlite', 'darwin-arm64', 'linux-x64')).toThrow(
      /must be built on darwin-arm64 \(runner macos-14\)/,
    );
    expect(() => bundlePlatform('sqlite', 'linux-ia32', 'linux-ia32')).toThrow(
      /no bundle platform linux-ia32/,
    );
    expect(bundlePlatform('filesystem', undefined)).toBe('any');
    expect(() => bundlePlatform('filesystem', 'linux-x64')).toThrow(/no native module/);
    expect(bundleFileName('sqlite', '1.0.0', 'win32-x64')).toBe('refmcp-server-sqlite-1.0.0-win32-x64.mcpb');
    expect(bundleFileName('search', '1.0.0', 'any')).toBe('refmcp-server-search-1.0.0.mcpb');
  });

  it('the workflow matrix: five sqlite jobs on their runners, one job for another server', () => {
    const m = bundleMatrix([
      { dir: 'sqlite', name: SQLITE, version: '1.0.0' },
      { dir: 'search', name: '@refmcp/server-search', version: '2.0.0' },
    ]);
    expect(m.map((j) => `${j.dir} ${j.platform} ${j.runner}`)).toEqual([
      'sqlite linux-x64 ubuntu-24.04',
      'sqlite linux-arm64 ubuntu-24.04-arm',
      'sqlite darwin-arm64 macos-14',
      'sqlite darwin-x64 macos-13',
      'sqlite win32-x64 windows-2022',
      'search any ubuntu-24.04',
    ]);
  });
});
