/**
 * Demo scene: the Google Drive server against a fake Drive (API, uploads and OAuth token
 * endpoint) the demo starts itself on 127.0.0.1 — the harness's fake, checked against
 * `@googleapis/drive` by the Drive server's tests; no network, no Google account. The saved
 * sign-in has expired, so the first call refreshes it (client id and secret from the keys file)
 * and saves the new token. The agent searches, reads a Google Doc as Markdown, finds and reads a
 * Shared Drive file by its Docs URL, and is refused a file outside --folders.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type FakeDrive, SCENE, seedScene, startFakeDrive } from '../fakes/drive/index.js';
import type { DemoScene } from './scene.js';
import { bold } from './session.js';

let fake: FakeDrive | undefined;

export const driveScene: DemoScene = {
  server: 'drive',
  async prepare(place) {
    fake = await startFakeDrive();
    seedScene(fake);
    const keys = join(place.scratch, 'gcp-oauth.keys.json');
    const token = join(place.scratch, 'drive-credentials.json');
    await writeFile(
      keys,
      JSON.stringify({ installed: { client_id: SCENE.clientId, client_secret: SCENE.clientSecret } }),
    );
    await writeFile(
      token,
      JSON.stringify({
        access_token: SCENE.expiredToken,
        refresh_token: SCENE.refreshToken,
        expiry_date: Date.now() - 1000,
      }),
      { mode: 0o600 },
    );
    process.env.REFMCP_DEMO_DRIVE_URL = fake.rootUrl;
    process.env.REFMCP_DEMO_DRIVE_TOKEN_URL = fake.tokenUrl;
    process.env.REFMCP_DEMO_DRIVE_KEYS = keys;
    process.env.REFMCP_DEMO_DRIVE_CREDENTIALS = token;
  },
  async run(session) {
    console.log(
      `\n${bold('Task: find the quarterly report and the 2027 roadmap in Google Drive and read them.')}`,
    );
    await session.call(
      'search',
      { query: 'report' },
      'The saved sign-in has expired: the server refreshes it first. Hits carry ids, types, owners and times.',
    );
    await session.call('read_file', { file_id: 'DOC1' }, 'A Google Doc, exported as Markdown.');
    await session.call(
      'search',
      { query: 'roadmap' },
      'The roadmap lives in a Shared Drive; search finds it.',
    );
    await session.call(
      'read_file',
      { file_id: 'https://docs.google.com/document/d/SDFILE1/edit' },
      'Read it by the URL a colleague pasted: Shared Drive files work everywhere.',
    );
    await session.call(
      'read_file',
      { file_id: 'SHEET1' },
      'A budget sheet outside --folders: refused before any content is read.',
      true,
    );
  },
  async cleanup() {
    await fake?.close();
    fake = undefined;
  },
};
