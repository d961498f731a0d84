/**
 * Static rules for the GitHub Actions workflows, beyond actionlint:
 * - every `uses:` of an action in another repository is pinned by a full 40-hex commit SHA with
 *   its tag in a comment (`owner/repo@<sha> # vX.Y.Z`; GitHub's "Security hardening for GitHub
 *   Actions": a tag can be moved, a commit cannot); local `./` actions and `docker://…@sha256:`
 *   images are allowed;
 * - the repository's own commands a workflow calls exist: `node release/dist/cli.js <command>`
 *   (a `case` of release/src/cli.ts), `npm run <script>` (root package.json), `pnpm --filter
 *   <pkg> run <script>` (that package's package.json), and the files it names (.ci/run, the Containerfile).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const PINNED = /^[\w.-]+\/[\w.-]+(?:\/[\w./-]+)?@[0-9a-f]{40} # v\d+(?:\.\d+){0,2}$/;

/** "line N: …" problems with the `uses:` of `workflowText`. */
export function pinProblems(workflowText: string): string[] {
  const out: string[] = [];
  workflowText.split('\n').forEach((line, i) => {
    const m = /^\s*(?:-\s+)?uses:\s*(.+?)\s*$/.exec(line);
    if (!m) return;
    const ref = (m[1] as string).replace(/^(['"])(.*)\1(\s+#.*)?$/, '$2$3');
    if (ref.startsWith('./') || /^docker:\/\/.+@sha256:[0-9a-f]{64}$/.test(ref)) return;
    if (!PINNED.test(ref))
      out.push(`line ${i + 1}: \`uses: ${ref}\` is not pinned as owner/repo@<40-hex commit> # <tag>`);
  });
  return out;
}

function scripts(repoRoot: string, packageName: string): Set<string> {
  const dirs = ['.', 'release', 'shared', 'test-harness', 'bench', 'hosts', 'conformance'];
  for (const dir of dirs) {
    const path = join(repoRoot, dir, 'package.json');
    if (!existsSync(path)) continue;
    const pkg = JSON.parse(readFileSync(path, 'utf8')) as { name: string; scripts?: Record<string, string> };
    if (pkg.name === packageName || (dir === '.' && packageName === '.'))
      return new Set(Object.keys(pkg.scripts ?? {}));
  }
  return new Set();
}

/** The subcommands release/src/cli.ts dispatches on (its `case '<name>':` labels). */
export function cliCommands(repoRoot: string): Set<string> {
  const text = readFileSync(join(repoRoot, 'release/src/cli.ts'), 'utf8');
  return new Set([...text.matchAll(/^\s*case '([a-z-]+)':/gm)].map((m) => m[1] as string));
}

/** Problems with the repository commands and files `workflowText` calls. */
export function commandProblems(workflowText: string, repoRoot: string): string[] {
  const out: string[] = [];
  const cli = cliCommands(repoRoot);
  for (const m of workflowText.matchAll(/node release\/dist\/cli\.js ([a-z-]+)/g))
    if (!cli.has(m[1] as string)) out.push(`refmcp-release has no command ${m[1]}`);
  const root = scripts(repoRoot, '.');
  for (const m of workflowText.matchAll(/npm run (?:-s )?([\w:-]+)/g))
    if (!root.has(m[1] as string)) out.push(`package.json has no script ${m[1]}`);
  for (const m of workflowText.matchAll(/pnpm --filter (\S+) run ([\w:-]+)/g))
    if (!scripts(repoRoot, m[1] as string).has(m[2] as string)) out.push(`${m[1]} has no script ${m[2]}`);
  for (const m of workflowText.matchAll(/(?:bash|-f) ((?:\.ci|release)\/[\w./-]+)/g))
    if (!existsSync(join(repoRoot, m[1] as string))) out.push(`no file ${m[1]}`);
  return out;
}
