/**
 * The demo: a scripted host session. It reads a host config file in the standard `mcpServers`
 * format (test-harness/demo/mcp.json), launches each server from it over stdio and prints a
 * readable transcript of a short agent task per server, then a one-line summary. No credentials,
 * no network. The config's `${env:REFMCP_DEMO_DIR}` is a scratch directory made for the run.
 *
 * Usage: node test-harness/dist/demo.js   (run from the repository root: `npm run demo`)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserScene } from './demo/browser.js';
import { driveScene } from './demo/drive.js';
import { filesystemScene } from './demo/filesystem.js';
import { githubScene } from './demo/github.js';
import { gitlabScene } from './demo/gitlab.js';
import { postgresScene } from './demo/postgres.js';
import type { DemoPlace, DemoScene } from './demo/scene.js';
import { searchScene } from './demo/search.js';
import { bold, DemoSession, type DemoTotals } from './demo/session.js';
import { slackScene } from './demo/slack.js';
import { sqliteScene } from './demo/sqlite.js';

const SCENES: DemoScene[] = [
  filesystemScene,
  postgresScene,
  sqliteScene,
  browserScene,
  githubScene,
  gitlabScene,
  driveScene,
  slackScene,
  searchScene,
];

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const configPath = join(repoRoot, 'test-harness/demo/mcp.json');

async function main() {
  const place: DemoPlace = { repoRoot, scratch: await mkdtemp(join(tmpdir(), 'refmcp-demo-')) };
  process.env.REFMCP_DEMO_DIR = place.scratch;
  const totals: DemoTotals = { calls: 0, refused: 0, expectedRefusals: 0, dirtyStdout: 0 };
  const started = performance.now();
  const skipped: string[] = [];
  console.log(bold(`refmcp demo — servers launched from ${configPath.replace(`${repoRoot}/`, '')}`));
  try {
    for (const scene of SCENES) {
      let session: DemoSession | undefined;
      try {
        await scene.prepare?.(place);
        session = await DemoSession.open(configPath, scene.server, repoRoot, totals);
        await scene.run(session, place);
      } catch (error) {
        // A scene whose server needs something outside the repo (a system browser) is skipped
        // with the server's own explanation when that is missing; any other failure fails the demo.
        if (!scene.needs || session) throw error;
        skipped.push(scene.server);
        const why = (error instanceof Error ? error.message : String(error)).split('\n').slice(-3).join(' ');
        console.log(`\n${bold(`━━ ${scene.server} ━━`)}  skipped: it needs ${scene.needs} (${why})`);
      } finally {
        await session?.close();
        await scene.cleanup?.(place);
      }
    }
  } finally {
    await rm(place.scratch, { recursive: true, force: true });
  }
  const ms = Math.round(performance.now() - started);
  const ok = totals.refused === totals.expectedRefusals && totals.dirtyStdout === 0;
  console.log(
    `\n${bold('Summary')}: ${SCENES.length - skipped.length} server(s)` +
      (skipped.length ? ` (skipped: ${skipped.join(', ')})` : '') +
      `, ${totals.calls} tool calls in ${ms} ms; ` +
      `${totals.expectedRefusals} refused as intended, ${totals.refused - totals.expectedRefusals} unexpected errors; ` +
      `${totals.dirtyStdout === 0 ? 'stdout carried only JSON-RPC' : `${totals.dirtyStdout} non-JSON stdout lines!`}.`,
  );
  if (!ok) process.exitCode = 1;
}

main().catch((error) => {
  console.error(`demo failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
