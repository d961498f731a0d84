/**
 * The harness's conformance suite against the built Drive server and the fake Drive with every
 * toolset on: ALL-01 … ALL-10, META and PORT, tool snapshots (each with its toolset), the README's
 * generated tool table; and toolset selection with the reference's `search` by default.
 */
import { NO_PACING } from '@refmcp/test-harness';
import { describeConformance, describeToolsetSelection } from '@refmcp/test-harness/conformance';
import type { FakeDrive } from '@refmcp/test-harness/fakes/drive';
import { afterAll, beforeAll } from 'vitest';
import { TOOLSETS } from '../src/toolsets.js';
import { type CredentialFiles, credentialFiles, fakeEnv, SCENE, startScene, startServer } from './support.js';

let fake: FakeDrive;
let files: CredentialFiles;
beforeAll(async () => {
  fake = await startScene();
  files = credentialFiles();
  // The slow call: a search for "slow" answers after 2.5 s.
  fake.api.latency(
    2500,
    (req) => req.path === '/drive/v3/files' && (req.query.get('q') ?? '').includes("'slow'"),
  );
});
afterAll(() => fake.close());

describeConformance({
  server: 'drive',
  testFile: import.meta.url,
  args: () => [...NO_PACING],
  env: () => fakeEnv(fake, files),
  allTools: ['--toolsets', 'all'],
  toolsets: TOOLSETS.map((t) => t.name),
  check: () => ({
    secrets: [SCENE.accessToken, SCENE.refreshToken, SCENE.clientSecret],
    slowCall: { name: 'search', arguments: { query: 'slow' } },
  }),
});

/** The reference server's one tool (@modelcontextprotocol/server-gdrive 2025.1.14). */
const PARITY = ['search'];

describeToolsetSelection({
  snapshots: new URL('./__toolsnaps__/', import.meta.url),
  start: (args) => startServer(fake, files, args),
  parity: PARITY,
  offByDefault: ['files_write', 'sharing'],
  sample: { toolset: 'files_write', read: 'read_file', write: 'create_file' },
});
