// refmcp-release: the steps of a release that run in this repo and in the release workflow.
//   sync-versions        after `changeset version`: each server.json and registry.json to the new versions
//   pack --out DIR       the release tarballs (pnpm pack, once) into DIR, each through the gate;
//                        prints one JSON line per tarball (name, version, file, bytes, sha512)
//   plan [--registry URL] the servers whose version the registry (default: npm's) does not serve
//                        yet, as one JSON array of {dir, name, version} (the workflow's matrix)
import { parseArgs } from 'node:util';
import { findRepoRoot } from './repo.js';
import { syncVersions } from './versions.js';

const USAGE = `usage: refmcp-release sync-versions
       refmcp-release pack --out DIR
       refmcp-release plan [--registry URL]`;

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { out: { type: 'string' }, registry: { type: 'string' } },
  });
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
    case 'plan': {
      const { planRelease } = await import('./plan.js');
      const { readNpmUpstream } = await import('./npm-config.js');
      const registry = values.registry ?? readNpmUpstream().registry;
      process.stdout.write(`${JSON.stringify(await planRelease(root, registry))}\n`);
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
