/**
 * The Drive server's own test fixtures: a seeded fake Drive (API, uploads and token endpoint) on
 * 127.0.0.1, a temp dir holding the OAuth client keys and a token file, and the built server
 * connected to it over stdio (GDRIVE_API_URL and GOOGLE_OAUTH_TOKEN_URL pointing at the fake; no
 * test reaches Google).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Era, NO_PACING, startBuiltServer } from '@refmcp/test-harness';
import { type FakeDrive, SCENE, seedScene, startFakeDrive } from '@refmcp/test-harness/fakes/drive';

export { SCENE };

/** A fake Drive with the standard scene (`big`: BIGDOC and the 50 MB text file too). */
export async function startScene(options: { big?: boolean } = {}): Promise<FakeDrive> {
  const fake = await startFakeDrive();
  seedScene(fake, options);
  return fake;
}

/** A temp dir with the scene's OAuth client keys and a token file. */
export interface CredentialFiles {
  dir: string;
  keys: string;
  token: string;
  /** Rewrites the token file. */
  writeToken(token: Record<string, unknown>, mode?: number): void;
  readToken(): Record<string, unknown>;
}

/** {@link CredentialFiles} holding `token` (default: the scene's fresh full-scope token and its refresh token). */
export function credentialFiles(token?: Record<string, unknown>): CredentialFiles {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'drive-creds-'));
  const keys = path.join(dir, 'gcp-oauth.keys.json');
  const tokenFile = path.join(dir, 'credentials.json');
  fs.writeFileSync(
    keys,
    JSON.stringify({
      installed: {
        client_id: SCENE.clientId,
        client_secret: SCENE.clientSecret,
        redirect_uris: ['http://localhost'],
      },
    }),
  );
  const files: CredentialFiles = {
    dir,
    keys,
    token: tokenFile,
    writeToken(value, mode = 0o600) {
      fs.writeFileSync(tokenFile, JSON.stringify(value), { mode });
      fs.chmodSync(tokenFile, mode);
    },
    readToken: () => JSON.parse(fs.readFileSync(tokenFile, 'utf8')) as Record<string, unknown>,
  };
  files.writeToken(
    token ?? {
      access_token: SCENE.accessToken,
      refresh_token: SCENE.refreshToken,
      expiry_date: Date.now() + 3_600_000,
      token_type: 'Bearer',
    },
  );
  return files;
}

/** A token file whose access token has expired (the first call refreshes). */
export const EXPIRED_TOKEN = () => ({
  access_token: SCENE.expiredToken,
  refresh_token: SCENE.refreshToken,
  expiry_date: Date.now() - 1000,
  token_type: 'Bearer',
});

/** The environment that points the server at `fake` with `files`. */
export const fakeEnv = (fake: FakeDrive, files: CredentialFiles): Record<string, string> => ({
  GDRIVE_API_URL: fake.rootUrl,
  GOOGLE_OAUTH_TOKEN_URL: fake.tokenUrl,
  GDRIVE_OAUTH_PATH: files.keys,
  GDRIVE_CREDENTIALS_PATH: files.token,
});

/** Spawns the built server against `fake` with `args`; `env` overrides. */
export function startServer(
  fake: FakeDrive,
  files: CredentialFiles,
  args: string[] = [],
  opts: { env?: Record<string, string>; era?: Era } = {},
) {
  return startBuiltServer('drive', [...NO_PACING, ...args], {
    env: { ...fakeEnv(fake, files), ...opts.env },
    era: opts.era ?? 'legacy',
  });
}

/** A tool result's structuredContent as a record ({} when absent). */
export const structured = (r: { structuredContent?: unknown }): Record<string, unknown> =>
  (r.structuredContent ?? {}) as Record<string, unknown>;

/** A test file's fake Drive, credential files and built server (the token fresh). */
export interface Session {
  fake: FakeDrive;
  files: CredentialFiles;
  conn: Awaited<ReturnType<typeof startServer>>;
  close(): Promise<void>;
}

/** Starts a {@link Session}: the scene (`big` for the heavy files) and the server with `args`. */
export async function openSession(options: { big?: boolean } = {}, args: string[] = []): Promise<Session> {
  const fake = await startScene(options);
  const files = credentialFiles();
  const conn = await startServer(fake, files, args);
  return {
    fake,
    files,
    conn,
    async close() {
      await conn.close();
      await fake.close();
    },
  };
}
