// refmcp-release: the steps of a release that run in this repo and in the release workflow.
//   sync-versions        after `changeset version`: each server.json and registry.json to the new versions
//   pack --out DIR       the release tarballs (pnpm pack, once) into DIR, each through the gate;
//                        prints one JSON line per tarball (name, version, file, bytes, sha512)
//   bundle --tarball FILE --out DIR [--platform OS-ARCH]   the server's MCPB bundle from its
//                        release tarball; prints {file, bytes, sha256, platform}. A server with a
//                        native module (sqlite) is built per platform, only on that platform
//                        (mcpb/platforms.ts); --platform defaults to this machine's
//   mcpb-entries --server DIR --bundles DIR [--repo OWNER/NAME] [--verify-urls]   writes the
//                        server's MCPB entries into servers/DIR/server.json from the built bundles
//                        (URL on the GitHub release, version, fileSha256), checks them, and with
//                        --verify-urls downloads each URL and compares its sha256
//   image-context --tarball FILE --out DIR   the build context of container/Containerfile
//                        (server/: the package with its runtime dependencies)
//   plan [--registry URL] [--bundle-matrix]   the servers whose version the registry (default: npm's)
//                        does not serve yet, as one JSON array of {dir, name, version} (the
//                        workflow's matrix); with --bundle-matrix, one {dir, name, version, platform,
//                        runner} per bundle to build (sqlite: one per platform)
import { parseArgs } from 'node:util';
import { findRepoRoot } from './repo.js';
import { syncVersions } from './versions.js';

const USAGE = `usage: refmcp-release sync-versions
       refmcp-release pack --out DIR
       refmcp-release plan [--registry URL] [--bundle-matrix]
       refmcp-release bundle --tarball FILE --out DIR [--platform OS-ARCH]
       refmcp-release mcpb-entries --server DIR --bundles DIR [--repo OWNER/NAME] [--verify-urls]
       refmcp-release image-context --tarball FILE --out DIR`;

/** Runs the command in `argv`; resolves to the exit code (0; 2 for a usage mistake, with the usage on stderr). */
async function main(argv: string[]): Promise<number> {
  const options = {
    out: { type: 'string' },
    registry: { type: 'string' },
    tarball: { type: 'string' },
    platform: { type: 'string' },
    server: { type: 'string' },
    bundles: { type: 'string' },
    repo: { type: 'string' },
    'verify-urls': { type: 'boolean' },
    'bundle-matrix': { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  } as const;
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof options }>
  >;
  try {
    parsed = parseArgs({ args: argv, allowPositionals: true, options });
  } catch (error) {
    console.error(`refmcp-release: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  const { positionals, values } = parsed;
  if (values.help || positionals[0] === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const root = findRepoRoot();
  switch (positionals[0]) {
    case 'sync-versions': {
      const changed = syncVersions(root);
      console.error(changed.length ? changed.join('\n') : 'server.json and registry.json already current');
      return 0;
    }
    case 'pack': {
      if (!values.out) break;
      const { packRelease } = await import('./tarballs.js');
      const { gateProblems } = await import('./gate.js');
      const tarballs = await packRelease(root, values.out);
      const problems = (await Promise.all(tarballs.map((t) => gateProblems(t)))).flat();
      for (const t of tarballs) {
        process.stdout.write(
          `${JSON.stringify({ name: t.name, version: t.version, file: t.file, bytes: t.bytes, integrity: t.integrity })}\n`,
        );
      }
      if (problems.length) {
        console.error(problems.join('\n'));
        return 1;
      }
      return 0;
    }
    case 'bundle': {
      if (!values.tarball || !values.out) break;
      const { readTarball } = await import('./tarballs.js');
      const { buildBundle } = await import('./mcpb/bundle.js');
      const t = readTarball(/refmcp-server-([a-z]+)-/.exec(values.tarball)?.[1] ?? '', values.tarball);
      const b = await buildBundle(t, values.out, {}, values.platform);
      process.stdout.write(
        `${JSON.stringify({ file: b.file, bytes: b.bytes, sha256: b.sha256, platform: b.platform })}\n`,
      );
      return 0;
    }
    case 'mcpb-entries': {
      if (!values.server || !values.bundles) break;
      const { writeMcpbEntries } = await import('./mcpb/write-entries.js');
      const problems = await writeMcpbEntries(root, values.server, values.bundles, {
        repo: values.repo,
        verifyUrls: values['verify-urls'] ?? false,
      });
      if (problems.length) {
        console.error(problems.join('\n'));
        return 1;
      }
      return 0;
    }
    case 'image-context': {
      if (!values.tarball || !values.out) break;
      const { readTarball } = await import('./tarballs.js');
      const { stageServer } = await import('./stage.js');
      const { join } = await import('node:path');
      const t = readTarball(/refmcp-server-([a-z]+)-/.exec(values.tarball)?.[1] ?? '', values.tarball);
      stageServer(t, join(values.out, 'server'), join(values.out, '.npm-cache'));
      return 0;
    }
    case 'plan': {
      const { planRelease } = await import('./plan.js');
      const { readNpmUpstream } = await import('./npm-config.js');
      const registry = values.registry ?? readNpmUpstream().registry;
      const planned = await planRelease(root, registry);
      const { bundleMatrix } = await import('./mcpb/platforms.js');
      process.stdout.write(`${JSON.stringify(values['bundle-matrix'] ? bundleMatrix(planned) : planned)}\n`);
      return 0;
    }
  }
  console.error(USAGE);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
