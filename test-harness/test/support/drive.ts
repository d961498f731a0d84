import { type drive_v3, drive as driveClient } from '@googleapis/drive';
import { OAuth2Client } from 'google-auth-library';
import { type FakeRequest, recordTraffic, type TrafficRecording } from '../../src/fake-api/index.js';
import { type FakeDrive, SCENE, seedScene, startFakeDrive } from '../../src/fakes/drive/index.js';
import { installLoopbackGuard, LOOPBACK_HOSTS } from '../../src/loopback.js';

/** Hosts every socket of this process connected to (after {@link guardLoopback}). */
export const connects: string[] = [];

/** The hosts off loopback that something tried to reach (each was refused). */
export const offLoopback = (): string[] => connects.filter((h) => !LOOPBACK_HOSTS.includes(h));

/**
 * Makes a connection to any host but loopback fail ("blocked: a request left loopback for
 * <host>") whatever HTTP client made it (gaxios uses node-fetch, not the global fetch), recording
 * every host in {@link connects}. Returns the function that restores it.
 */
export function guardLoopback(): () => void {
  return installLoopbackGuard((host) => {
    connects.push(host);
  });
}

/** The status, Google error reasons and message of a failed client call (a GaxiosError). */
export async function failure(
  promise: Promise<unknown>,
): Promise<{ status: number; reasons: string[]; message: string }> {
  try {
    await promise;
  } catch (error) {
    const e = error as {
      status?: number;
      message: string;
      response?: { status: number; data?: { error?: { errors?: Array<{ reason: string }> } } };
    };
    const errors = e.response?.data?.error?.errors ?? [];
    return {
      status: Number(e.response?.status ?? e.status),
      reasons: errors.map((x) => x.reason),
      message: e.message,
    };
  }
  throw new Error('expected the call to fail');
}

/** A reply header, whichever shape the client's response carries (fetch Headers or a record). */
export function header(res: { headers: unknown }, name: string): string | null {
  const h = res.headers as Headers | Record<string, string>;
  return typeof h.get === 'function'
    ? (h as Headers).get(name)
    : ((h as Record<string, string>)[name] ?? null);
}

/** One test file's fake Drive and clients. */
export interface DriveScene {
  fake: FakeDrive;
  /** Holds an expired access token and the scene's refresh token: the first call refreshes. */
  oauth: OAuth2Client;
  api: drive_v3.Drive;
  /** Per-call options: media uploads ignore the client-level rootUrl. */
  at: { rootUrl: string };
  /** The traffic directory this file's fakes record into (for the spec check). */
  /** This scene's recorded traffic. */
  traffic: TrafficRecording;
  /** The last request the fake recorded whose path contains `fragment`. */
  last(fragment: string): FakeRequest;
  /** A Drive client on the fake with a fixed access token (no refresh). */
  clientWith(token: string): drive_v3.Drive;
  close(): Promise<void>;
}

/** Starts the fake (scene seeded, big files included), guards loopback and records traffic. */
export async function openDriveScene(): Promise<DriveScene> {
  const traffic = recordTraffic('fake-drive-traffic-');
  const restore = guardLoopback();
  const fake = await startFakeDrive();
  seedScene(fake, { big: true });
  const oauth = new OAuth2Client({
    clientId: SCENE.clientId,
    clientSecret: SCENE.clientSecret,
    endpoints: { oauth2TokenUrl: fake.tokenUrl },
  });
  oauth.setCredentials({
    access_token: SCENE.expiredToken,
    refresh_token: SCENE.refreshToken,
    expiry_date: Date.now() - 1000,
  });
  return {
    fake,
    oauth,
    api: driveClient({ version: 'v3', auth: oauth, rootUrl: fake.rootUrl, retry: false }),
    at: { rootUrl: fake.rootUrl },
    traffic,
    last(fragment) {
      const found = fake.api.requests.filter((r) => r.rawPath.includes(fragment)).at(-1);
      if (!found) throw new Error(`no request to ${fragment}`);
      return found;
    },
    clientWith(token) {
      const auth = new OAuth2Client({ endpoints: { oauth2TokenUrl: fake.tokenUrl } });
      auth.setCredentials({ access_token: token, expiry_date: Date.now() + 3_600_000 });
      return driveClient({ version: 'v3', auth, rootUrl: fake.rootUrl, retry: false });
    },
    async close() {
      restore();
      await fake.close();
      traffic.stop();
    },
  };
}
